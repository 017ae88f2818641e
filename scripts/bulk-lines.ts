/**
 * The work of `deno task ingest --bulk`'s workers (`bulk-ingest-worker.ts`):
 * raw `.jsonl` lines in, one prepared piece (an encoded log record of the
 * embedded index) out. Parsing, chunking, embedding (only lines without a
 * `vector`) and BM25 analysis all happen here, beside the thread that builds
 * the index.
 */
import { type BulkPiece, prepareBulkPiece } from "../lib/vector-index/mod.ts";
import { readConfig } from "../shared/config.ts";
import { chunkDocuments, type ChunkDraft, documentId } from "../shared/documents/ingest.ts";
import type { Embedder } from "../shared/embeddings/port.ts";
import { Runtime } from "../compose/runtime.ts";
import { type IndexedChunk, searchableText } from "../shared/vector/port.ts";
import { documentFromRecord } from "./documents.ts";

export type LinesInput = {
  /** Whole lines, a buffer of their own (handed over, not copied). */
  bytes: Uint8Array;
  path: string;
  namespace: string;
};

export type PieceOutput = BulkPiece & { lines: number; chunks: number };

/** Texts per embedding call, and calls in flight at once per worker. */
const EMBED_BATCH = 128;
const EMBED_CONCURRENCY = 4;

/**
 * A line the ingest cannot take: its number in the piece, a tab, why (the
 * thread that cut the pieces knows the lines before it and says `path:line: why`).
 */
export class BulkLineError extends Error {
  override name = "BulkLineError";
}

const decoder = new TextDecoder();
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
let embedder: Embedder | undefined;

/** `vector`: an array of numbers, or base64 of little-endian float32 (OpenAI's base64 format). */
function vectorOf(value: unknown, where: string): number[] {
  if (typeof value === "string") {
    let bytes: Uint8Array;
    try {
      bytes = Uint8Array.fromBase64(value);
    } catch {
      throw new BulkLineError(`${where}vector: not base64`);
    }
    if (bytes.length === 0 || bytes.length % 4 !== 0) {
      throw new BulkLineError(
        `${where}vector: base64 of float32 values has a multiple of 4 bytes`,
      );
    }
    // `fromBase64` gives a buffer of its own at offset 0: read it as float32 in place.
    const out = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4);
    if (!LITTLE_ENDIAN) {
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      for (let i = 0; i < out.length; i++) out[i] = view.getFloat32(i * 4, true);
    }
    for (let i = 0; i < out.length; i++) {
      if (!Number.isFinite(out[i]!)) {
        throw new BulkLineError(`${where}vector: holds a value that is not finite`);
      }
    }
    // `prepareChunk` only reads a vector by index: no copy into a plain array (most of a line's parse).
    return out as unknown as number[];
  }
  if (
    Array.isArray(value) && value.length > 0 &&
    value.every((x) => typeof x === "number" && Number.isFinite(x))
  ) return value as number[];
  throw new BulkLineError(
    `${where}vector: an array of finite numbers or a base64 string of float32 values`,
  );
}

async function embedAll(drafts: ChunkDraft[]): Promise<number[][]> {
  embedder ??= new Runtime().deps(readConfig(Deno.env.toObject())).embedder;
  const texts = drafts.map(searchableText);
  const vectors: number[][] = new Array(texts.length);
  let next = 0;
  const lane = async () => {
    for (let at = next; at < texts.length; at = next) {
      next += EMBED_BATCH;
      const batch = await embedder!.embed(texts.slice(at, at + EMBED_BATCH));
      batch.forEach((vector, i) => (vectors[at + i] = vector));
    }
  };
  await Promise.all(Array.from({ length: EMBED_CONCURRENCY }, lane));
  return vectors;
}

/** A line's document: chunks to embed, or its one chunk with the line's own vector. */
type LineDocument = { drafts: ChunkDraft[] } | { chunk: IndexedChunk };

/**
 * The piece of `input`'s lines. A document given again in the piece ends
 * with exactly its last line's chunks, as one ingest after another leaves it
 * (a longer earlier line's extra chunks gone); its earlier lines are not
 * embedded. A piece is one log record, which can hold only one version of a
 * document it replaces.
 */
export async function linesToPiece(input: LinesInput): Promise<PieceOutput> {
  const { chunking } = readConfig(Deno.env.toObject());
  const ingestedAt = new Date().toISOString();
  const lines = decoder.decode(input.bytes).split("\n");
  /** By document id, its last line's; deleted before set, so in the order of last lines. */
  const documents = new Map<string, LineDocument>();
  const keep = (docId: string, line: LineDocument) => {
    documents.delete(docId);
    documents.set(docId, line);
  };
  let count = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line.trim()) continue;
    count++;
    const where = `${i + 1}\t`;
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch {
      throw new BulkLineError(`${where}not a JSON object`);
    }
    if (typeof record !== "object" || record === null || Array.isArray(record)) {
      throw new BulkLineError(`${where}not a JSON object`);
    }
    const { vector, ...fields } = record as Record<string, unknown>;
    const document = documentFromRecord(fields);
    if (!document.text.trim()) throw new BulkLineError(`${where}text: empty`);
    if (vector === undefined) {
      const [chunked] = await chunkDocuments([document], chunking);
      keep(chunked!.id, { drafts: chunked!.chunks });
      continue;
    }
    // A line with its vector is one chunk: the vector is the whole text's.
    const docId = document.id ?? await documentId(document.text);
    keep(docId, {
      chunk: {
        id: `${docId}#0`,
        text: document.text,
        vector: vectorOf(vector, where),
        metadata: {
          ...document.metadata,
          doc_id: docId,
          ...(document.title ? { title: document.title } : {}),
          ...(document.url ? { url: document.url } : {}),
          ...(document.published ? { published: document.published } : {}),
          ...(document.authors ? { authors: document.authors } : {}),
          ingested_at: ingestedAt,
          chunk_index: 0,
        },
      },
    });
  }
  const kept = [...documents.values()];
  const drafts = kept.flatMap((line) => "drafts" in line ? line.drafts : []);
  const vectors = drafts.length ? await embedAll(drafts) : [];
  let embedded = 0;
  const chunks = kept.flatMap((line) =>
    "chunk" in line
      ? [line.chunk]
      : line.drafts.map((draft) => ({ ...draft, vector: vectors[embedded++]! }))
  );
  const replace = [...documents.keys()];
  const piece = prepareBulkPiece(chunks, { namespace: input.namespace, replace });
  return { frame: piece.frame, lines: count, chunks: chunks.length };
}

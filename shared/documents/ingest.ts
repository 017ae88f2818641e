import { IndexDamagedError, InvalidRequestError, SiftError } from "../errors.ts";
import type { Embedder } from "../embeddings/port.ts";
import { sha256Hex } from "../hash.ts";
import type { ChunkOptions } from "../text/chunk.ts";
import { chunkBlocks } from "../text/chunk-blocks.ts";
import { paragraphBlocks } from "../text/paragraphs.ts";
import type { Block } from "./blocks.ts";
import {
  type ChunkMetadata,
  type IndexedChunk,
  searchableText,
  type VectorIndex,
} from "../vector/port.ts";

export type DocumentInput = {
  id?: string | undefined;
  text: string;
  title?: string | undefined;
  url?: string | undefined;
  published?: string | undefined;
  authors?: string | string[] | undefined;
  metadata?: Record<string, unknown> | undefined;
  /**
   * The text as a parser read it (headings, pages); without it, `text` is
   * read as plain paragraphs. `text` stays the whole text: the id comes from it.
   */
  blocks?: Block[] | undefined;
};

export type IngestResult = {
  namespace: string;
  documents: { id: string; chunks: number }[];
  chunks: number;
};

/** A chunk before embedding. */
export type ChunkDraft = Omit<IndexedChunk, "vector" | "metadata"> & { metadata: ChunkMetadata };

/** The id a document gets when the caller gives none: stable for the same text. */
export async function documentId(text: string): Promise<string> {
  return `doc-${(await sha256Hex(text)).slice(0, 16)}`;
}

/**
 * Splits documents into chunks with stable ids (`${doc_id}#${n}`) and their
 * metadata: chunks follow the document's blocks (see `chunkBlocks`) and carry
 * `section`, `page` and `page_end` where the blocks had them.
 */
export async function chunkDocuments(
  documents: readonly DocumentInput[],
  chunking: ChunkOptions,
): Promise<{ id: string; chunks: ChunkDraft[] }[]> {
  const ingestedAt = new Date().toISOString();
  return await Promise.all(documents.map(async (document) => {
    const id = document.id ?? await documentId(document.text);
    const shared = {
      ...document.metadata,
      doc_id: id,
      ...(document.title ? { title: document.title } : {}),
      ...(document.url ? { url: document.url } : {}),
      ...(document.published ? { published: document.published } : {}),
      ...(document.authors ? { authors: document.authors } : {}),
      ingested_at: ingestedAt,
    };
    const blocks = document.blocks ?? paragraphBlocks(document.text);
    const chunks = chunkBlocks(blocks, chunking).map((chunk, index) => ({
      id: `${id}#${index}`,
      text: chunk.text,
      metadata: {
        ...shared,
        chunk_index: index,
        ...(chunk.section ? { section: chunk.section } : {}),
        ...(chunk.page !== undefined ? { page: chunk.page } : {}),
        ...(chunk.page_end !== undefined ? { page_end: chunk.page_end } : {}),
      } satisfies ChunkMetadata,
    }));
    return { id, chunks };
  }));
}

/**
 * Chunks, embeds and upserts documents. A document ingested again replaces
 * its old chunks (a shorter text must not leave stale tail chunks behind).
 * Embedding happens before anything is deleted, so a failed embedding call
 * leaves the index as it was.
 */
export async function ingestDocuments(
  deps: { embedder: Embedder; index: VectorIndex },
  input: { documents: readonly DocumentInput[]; namespace: string; chunking: ChunkOptions },
  signal?: AbortSignal,
): Promise<IngestResult> {
  const chunked = await chunkDocuments(input.documents, input.chunking);
  const firstPosition = new Map<string, number>();
  chunked.forEach((document, position) => {
    const earlier = firstPosition.get(document.id);
    if (earlier !== undefined) {
      throw new InvalidRequestError(
        input.documents[position]!.id === undefined
          ? `documents.${position}: has the same text as documents.${earlier}`
          : `documents.${position}.id: "${document.id}" is already used by documents.${earlier}`,
      );
    }
    firstPosition.set(document.id, position);
  });
  const pending = chunked.flatMap((document) => document.chunks);
  const vectors = await deps.embedder.embed(
    pending.map(searchableText),
    signal ? { signal } : {},
  );
  const chunks: IndexedChunk[] = pending.map((chunk, position) => ({
    ...chunk,
    vector: vectors[position]!,
  }));
  // One replace: the new chunks never go missing, the old ones never linger.
  try {
    await deps.index.replaceDocuments(chunked.map((document) => document.id), chunks, {
      namespace: input.namespace,
    });
  } catch (error) {
    throw unstoredError(error);
  }
  return {
    namespace: input.namespace,
    documents: chunked.map((document) => ({ id: document.id, chunks: document.chunks.length })),
    chunks: chunks.length,
  };
}

/**
 * An index that failed a write is unavailable, not wrong: 503, so the caller
 * retries and nothing is acknowledged that was not stored. A caller's mistake
 * (4xx), a damaged index file and a retryable 503 that says why stay as they are.
 */
function unstoredError(error: unknown): unknown {
  // A damaged index file says which file and what to do; retrying will not help.
  if (error instanceof IndexDamagedError) return error;
  if (error instanceof SiftError && error.status < 500) return error;
  // The Postgres index: unreachable, or one statement took too long (its message names which).
  if (error instanceof SiftError && error.status === 503 && error.isRetryable) return error;
  return new SiftError(
    "upstream_error",
    503,
    "The index is unavailable; the documents were not stored",
    {
      cause: error,
      isRetryable: true,
    },
  );
}

/**
 * `deno task ingest --bulk`: large `.jsonl` files straight into the embedded
 * index in a data directory, without a server. The file is read in pieces of
 * whole lines; Web Workers parse, chunk, embed (lines without a `vector`)
 * and analyze them (`bulk-lines.ts`); this thread appends each piece
 * as one fsynced log record and adds it in one pass (`EmbeddedIndex.bulkUpsert`),
 * then one checkpoint at the end. A piece is reported once it is durable.
 */
import { EmbeddedIndex, mapInWorkers } from "../lib/vector-index/deno/mod.ts";
import { indexLogIn } from "../adapters/deno/data-dir.ts";
import type { LinesInput, PieceOutput } from "./bulk-lines.ts";
import { CliError } from "../cli/cli.ts";
import { formatDuration } from "./progress.ts";

/** Bytes of `.jsonl` per piece: one log record, one fsync (about 4,000 lines with base64 1,536-d vectors). */
export const PIECE_BYTES = 40 * 1024 * 1024;
const READ_BYTES = 8 * 1024 * 1024;

export type BulkProgress = {
  path: string;
  /** Lines, chunks and bytes of this file durable so far, and the file's size. */
  lines: number;
  chunks: number;
  bytes: number;
  fileBytes: number;
  /** Chunks durable over every file so far. */
  totalChunks: number;
  elapsedMs: number;
};

/**
 * A file's whole lines in pieces of about `pieceBytes`, each read straight
 * into a buffer of its own (handed to a worker as it is): a piece ends at the
 * last newline once it is full, and only the part line after it is copied
 * into the next. This thread looks at a few bytes per piece: scanning every
 * byte for newlines here, or copying reads into pieces, cost more than the
 * index's own build.
 */
async function* linePieces(
  path: string,
  namespace: string,
  pieceBytes: number,
): AsyncGenerator<LinesInput & { byteLength: number }> {
  using file = await Deno.open(path, { read: true });
  const readBytes = Math.min(READ_BYTES, pieceBytes);
  let buffer = new Uint8Array(pieceBytes + readBytes);
  let held = 0;
  const piece = (bytes: Uint8Array) => ({ bytes, path, namespace, byteLength: bytes.length });
  for (;;) {
    if (buffer.length - held < readBytes) {
      // A line longer than a piece: room for more of it.
      const larger = new Uint8Array(buffer.length * 2);
      larger.set(buffer.subarray(0, held));
      buffer = larger;
    }
    const read = await file.read(buffer.subarray(held, held + readBytes));
    if (read === null) break;
    held += read;
    if (held < pieceBytes) continue;
    const end = buffer.lastIndexOf(10, held - 1);
    if (end === -1) continue;
    const next = new Uint8Array(pieceBytes + readBytes);
    next.set(buffer.subarray(end + 1, held));
    yield piece(buffer.subarray(0, end + 1));
    buffer = next;
    held -= end + 1;
  }
  if (held) yield piece(buffer.subarray(0, held));
}

/**
 * Ingests `files` into the index in `dataDir`; `onProgress` hears of each
 * durable piece. A line that is not a document stops it with `path:line: why`
 * (the pieces before it stay ingested, and are checkpointed).
 */
export async function bulkIngest(options: {
  files: string[];
  dataDir: string;
  namespace: string;
  workers?: number;
  pieceBytes?: number;
  onProgress?: (progress: BulkProgress) => void;
}): Promise<{ lines: number; chunks: number; seconds: number }> {
  const started = performance.now();
  const log = indexLogIn(options.dataDir);
  const index = new EmbeddedIndex({ log });
  await index.open();
  const fileBytes = new Map<string, number>();
  for (const path of options.files) fileBytes.set(path, (await Deno.stat(path)).size);
  /** The piece being committed (`bulkUpsert` takes the next only after this one is durable). */
  let last: { path: string; lines: number; chunks: number; bytes: number } | undefined;
  const file = { path: "", lines: 0, chunks: 0, bytes: 0 };
  let lines = 0;
  let chunks = 0;
  const perPiece = options.pieceBytes ?? PIECE_BYTES;
  const sizes: [string, number][] = [];
  const inputs = (async function* () {
    for (const path of options.files) {
      for await (const input of linePieces(path, options.namespace, perPiece)) {
        sizes.push([path, input.byteLength]); // the worker's answer knows lines, not bytes
        yield input;
      }
    }
  })();
  const outputs = mapInWorkers<LinesInput & { byteLength: number }, PieceOutput>(
    new URL("./bulk-ingest-worker.ts", import.meta.url),
    inputs,
    {
      ...(options.workers ? { workers: options.workers } : {}),
      transfer: (input) => [input.bytes.buffer as ArrayBuffer],
    },
  );
  /** Lines of each file in the pieces answered so far: a worker's line number is its piece's. */
  const linesBefore = new Map<string, number>();
  const pieces = (async function* () {
    for (;;) {
      let next: IteratorResult<PieceOutput>;
      try {
        next = await outputs.next();
      } catch (error) {
        const [path] = sizes[0]!;
        const line = /^(\d+)\t(.*)$/s.exec((error as Error).message);
        if (!line) throw error;
        const number = (linesBefore.get(path) ?? 0) + Number(line[1]);
        throw Object.assign(new Error(`${path}:${number}: ${line[2]}`), { name: "BulkLineError" });
      }
      if (next.done) return;
      const output = next.value;
      const [path, bytes] = sizes.shift()!;
      linesBefore.set(path, (linesBefore.get(path) ?? 0) + output.lines);
      last = { path, lines: output.lines, chunks: output.chunks, bytes };
      yield output;
    }
  })();
  try {
    await index.bulkUpsert(pieces, {
      onDurable: () => {
        const piece = last!;
        if (file.path !== piece.path) {
          Object.assign(file, { path: piece.path, lines: 0, chunks: 0, bytes: 0 });
        }
        file.lines += piece.lines;
        file.chunks += piece.chunks;
        file.bytes += piece.bytes;
        lines += piece.lines;
        chunks += piece.chunks;
        options.onProgress?.({
          ...file,
          fileBytes: fileBytes.get(piece.path) ?? 0,
          totalChunks: chunks,
          elapsedMs: performance.now() - started,
        });
      },
    });
  } catch (error) {
    // What is durable is kept: make it one checkpoint, so the next start maps it.
    await index.flush().catch(() => {});
    throw error;
  } finally {
    log.close();
  }
  return { lines, chunks, seconds: (performance.now() - started) / 1000 };
}

/**
 * The command's side of `--bulk`: refuses when a server holds the index (or
 * the index is not the embedded one), prints a line per durable piece (piped)
 * or one status line (terminal), and the total at the end.
 */
export async function runBulkIngest(
  files: string[],
  options: { namespace: string; workers?: number },
): Promise<void> {
  const notJsonl = files.find((path) => !/\.(jsonl|ndjson)$/i.test(path));
  if (notJsonl) throw new CliError(`--bulk takes .jsonl files: ${notJsonl} is not one`);
  const env = Deno.env.toObject();
  if (env.DATABASE_URL || env.UPSTASH_VECTOR_REST_URL) {
    throw new CliError(
      "--bulk writes the embedded index in SIFT_DATA_DIR, but DATABASE_URL or " +
        "UPSTASH_VECTOR_REST_URL puts the index elsewhere: ingest without --bulk",
    );
  }
  if (env.SIFT_URL) {
    throw new CliError(
      "--bulk writes the local index in SIFT_DATA_DIR, not a server: unset SIFT_URL",
    );
  }
  const base = `http://127.0.0.1:${env.PORT ?? "8787"}`;
  const answered = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(1500) })
    .then(async (response) => (await response.body?.cancel(), true), () => false);
  if (answered) {
    throw new CliError(
      `a sift answers at ${base} and holds the index: stop it for --bulk, or ingest without --bulk`,
    );
  }
  const dataDir = env.SIFT_DATA_DIR ?? ".data";
  const totalBytes = (await Promise.all(files.map((path) => Deno.stat(path))))
    .reduce((sum, info) => sum + info.size, 0);
  const tty = Deno.stdout.isTerminal();
  const encoder = new TextEncoder();
  const write = (text: string) => Deno.stdout.writeSync(encoder.encode(text));
  console.log(`sift: bulk into ${dataDir} (no server); ${files.length} file(s)`);
  let bytesBefore = 0;
  let lastPath = "";
  let lastFileBytes = 0;
  let result: Awaited<ReturnType<typeof bulkIngest>>;
  try {
    result = await bulkIngest({
      files,
      dataDir,
      namespace: options.namespace,
      ...(options.workers ? { workers: options.workers } : {}),
      onProgress: (progress) => {
        if (progress.path !== lastPath) {
          bytesBefore += lastFileBytes;
          lastPath = progress.path;
        }
        lastFileBytes = progress.fileBytes;
        const done = (bytesBefore + progress.bytes) / Math.max(totalBytes, 1);
        const seconds = progress.elapsedMs / 1000;
        const rate = progress.totalChunks / Math.max(seconds, 0.001);
        const left = done > 0 && done < 1
          ? ` · ${formatDuration(seconds / done - seconds)} left`
          : "";
        const line =
          `${progress.path}: ${progress.lines} lines, ${progress.chunks} chunks durable ` +
          `(${Math.floor(done * 100)}%) · ${rate.toFixed(0)} chunks/s${left}`;
        write(tty ? `\r${line}\x1b[K` : `  ${line}\n`);
      },
    });
  } catch (error) {
    if (tty) write("\n");
    // A line that is no document, or a vector of another width: the caller's to fix.
    const name = (error as Error).name;
    if (name === "BulkLineError" || name === "IndexInputError") {
      throw new CliError(`${(error as Error).message} (the pieces reported above are ingested)`);
    }
    throw error;
  }
  if (tty) write("\n");
  console.log(
    `ingested ${result.lines} line(s) as ${result.chunks} chunks into ${options.namespace} ` +
      `in ${result.seconds.toFixed(1)} s (${
        (result.chunks / Math.max(result.seconds, 0.001)).toFixed(0)
      } chunks/s), checkpointed`,
  );
}

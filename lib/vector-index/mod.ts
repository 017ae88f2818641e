/**
 * An embedded vector index: dense cosine (int8 rows, rescored), BM25 over
 * sparse postings, and their reciprocal rank fusion, in one process, durable
 * in a directory (an fsynced log plus a checkpoint of flat arrays), or in
 * memory only. It imports nothing but the `zod` and `stemmer` npm packages.
 *
 * @example
 * ```ts
 * import { openIndex } from "./lib/vector-index/mod.ts";
 *
 * const index = await openIndex({ dir: "./my-index" });
 * await index.upsert([
 *   { id: "a#0", text: "cats purr", vector: [1, 0], metadata: { doc_id: "a", chunk_index: 0 } },
 * ]);
 * const hits = await index.query({ mode: "hybrid", text: "purring cats", vector: [1, 0.1] });
 * await index.close(); // checkpoints: the next open maps arrays and replays nothing
 * ```
 * @module
 */
import type { BulkPiece } from "./bulk.ts";
import { FileIndexLog } from "./deno/file-index-log.ts";
import { mapInWorkers } from "./deno/worker-pool.ts";
import { EmbeddedIndex, type IndexedDocument, type IndexStatus } from "./index.ts";
import type { RecoveredTail } from "./log.ts";
import type { IndexedChunk, MetadataFilter, SearchHit, SearchMode } from "./types.ts";

export { EmbeddedIndex } from "./index.ts";
export { type BulkPiece, prepareBulkPiece } from "./bulk.ts";
export type { IndexedDocument, IndexQuery, IndexStatus, RecoveredTails } from "./index.ts";
export type { IndexLog, RecoveredTail } from "./log.ts";
export { FileIndexLog } from "./deno/file-index-log.ts";
export { IndexDamagedError, IndexInputError, IndexUnreadableError } from "./errors.ts";
export { searchableText } from "./types.ts";
export type {
  ChunkMetadata,
  FilterCondition,
  IndexedChunk,
  MetadataFilter,
  SearchHit,
  SearchMode,
  StoredChunk,
} from "./types.ts";

/** Where the namespace option is left out. */
export const DEFAULT_NAMESPACE = "default";

/** An open index. Every change resolves once it is durable (with `dir`) and visible to queries. */
export interface VectorIndexHandle {
  /** Adds or replaces chunks by id. All chunks of a namespace share one vector width. */
  upsert(chunks: IndexedChunk[], options?: { namespace?: string }): Promise<void>;
  /** Removes every chunk of a document; resolves to how many went. */
  delete(docId: string, options?: { namespace?: string }): Promise<number>;
  /**
   * The `topK` best chunks (10 by default): `dense` needs `vector`, `sparse`
   * scores `text` with BM25, `hybrid` fuses both by rank. `vector` can be a
   * promise (an embeddings call in flight): `hybrid` runs BM25 meanwhile.
   */
  query(query: {
    mode: SearchMode;
    text?: string;
    vector?: number[] | Promise<number[]>;
    topK?: number;
    filter?: MetadataFilter;
    namespace?: string;
  }): Promise<SearchHit[]>;
  /** Documents in id order, `limit` (100) at a time after `after`; `more` says whether any follow. */
  list(
    options?: { namespace?: string; limit?: number; after?: string },
  ): Promise<{ documents: IndexedDocument[]; more: boolean }>;
  /**
   * Many chunks at once (a first load, a re-index): each batch of `chunks` is
   * normalized and analyzed in Web Workers (`workers`, default: the cores),
   * appended as one log record with one fsync and added in one pass, then
   * reported to `onDurable`; one checkpoint at the end. Batches of a few
   * thousand chunks suit it. A crash keeps the batches reported.
   */
  bulkUpsert(
    chunks: AsyncIterable<IndexedChunk[]> | Iterable<IndexedChunk[]>,
    options?: { namespace?: string; workers?: number; onDurable?: (chunks: number) => void },
  ): Promise<{ chunks: number }>;
  /** Whether it serves, and what loads cut from a torn log's end (until acknowledged). */
  status(): IndexStatus;
  /** Forgets `status().recovered`, on disk too; resolves to the cuts it held. */
  acknowledgeRecovered(): Promise<readonly RecoveredTail[]>;
  /** Checkpoints what the log holds since the last checkpoint and releases the files. */
  close(): Promise<void>;
}

/**
 * Opens the index kept in `dir` (created if missing; files `index.ckpt` and
 * `index.<n>.log`), or an in-memory one without `dir`. One process at a time
 * may hold a directory. Rejects with `IndexDamagedError` (file, byte, why)
 * when a file fails its checksum: nothing is overwritten.
 *
 * @example
 * ```ts
 * const index = await openIndex(); // in memory
 * await index.upsert([{ id: "x#0", text: "hello", vector: [0, 1], metadata: { doc_id: "x", chunk_index: 0 } }]);
 * (await index.query({ mode: "sparse", text: "hello" }))[0]?.id; // "x#0"
 * ```
 */
export async function openIndex(
  options: { dir?: string; checkpointMinBytes?: number } = {},
): Promise<VectorIndexHandle> {
  let log: FileIndexLog | undefined;
  if (options.dir !== undefined) {
    await Deno.mkdir(options.dir, { recursive: true });
    log = new FileIndexLog(`${options.dir}/index.log`);
  }
  const index = new EmbeddedIndex({
    ...(log ? { log } : {}),
    ...(options.checkpointMinBytes === undefined
      ? {}
      : { checkpointMinBytes: options.checkpointMinBytes }),
  });
  await index.open();
  const ns = (given: { namespace?: string } | undefined) => ({
    namespace: given?.namespace ?? DEFAULT_NAMESPACE,
  });
  return {
    upsert: (chunks, given) => index.upsert(chunks, ns(given)),
    delete: (docId, given) => index.deleteDocument(docId, ns(given)),
    query: (query) =>
      index.query({
        namespace: ns(query).namespace,
        mode: query.mode,
        text: query.text ?? "",
        vector: query.vector,
        topK: query.topK ?? 10,
        filter: query.filter,
      }),
    list: (given) =>
      index.listDocuments({
        namespace: ns(given).namespace,
        limit: given?.limit ?? 100,
        after: given?.after,
      }),
    bulkUpsert: (chunks, given) => {
      const { namespace } = ns(given);
      const pieces = mapInWorkers<{ chunks: IndexedChunk[]; namespace: string }, BulkPiece>(
        new URL("./deno/prepare-worker.ts", import.meta.url),
        (async function* () {
          for await (const batch of chunks) yield { chunks: batch, namespace };
        })(),
        given?.workers === undefined ? {} : { workers: given.workers },
      );
      return index.bulkUpsert(pieces, {
        onDurable: (piece) => given?.onDurable?.(piece.chunks),
      });
    },
    status: () => index.status(),
    acknowledgeRecovered: () => index.acknowledgeRecovered(),
    close: async () => {
      await index.flush();
      log?.close();
    },
  };
}

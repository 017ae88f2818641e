/**
 * An embedded vector index: dense cosine (int8 rows, rescored), BM25 over
 * sparse postings, and their reciprocal rank fusion, in one process, durable
 * in a directory (an fsynced log plus a checkpoint of flat arrays), or in
 * memory only. It imports nothing but the `zod` and `stemmer` npm packages.
 * This entry is runtime-neutral (the engine, its types, the log's interface);
 * `deno/mod.ts` adds the file log, the worker pool and `openIndex`.
 *
 * @example
 * ```ts
 * import { openIndex } from "./lib/vector-index/deno/mod.ts";
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
import type { IndexedDocument, IndexStatus } from "./index.ts";
import type { RecoveredTail } from "./log.ts";
import type { IndexedChunk, MetadataFilter, SearchHit, SearchMode } from "./types.ts";

export { EmbeddedIndex } from "./index.ts";
/** A bulk build's pieces: made anywhere (a worker), read back as the one record each holds. */
export { type BulkPiece, prepareBulkPiece, readBulkPiece } from "./bulk.ts";
export type { IndexedDocument, IndexQuery, IndexStatus, RecoveredTails } from "./index.ts";
export type { IndexLog, RecoveredTail } from "./log.ts";
/** The log's record format, for an `IndexLog` of another store (and to read a log's bytes). */
export { decodeRecords, encodeRecord, type IndexRecord } from "./record.ts";
export type { PreparedChunk } from "./prepared.ts";
/** The checkpoint format an `IndexLog` keeps: frames to write, and a whole file read back. */
export { checkpointFrames, readCheckpoint } from "./checkpoint.ts";
export type { NamespaceSnapshot, NamespaceView } from "./snapshot.ts";
/** Which dense kernel this runtime runs (`wasm-simd` or `js`): for banners and health checks. */
export { dotKernelName } from "./kernel/kernel.ts";
export { DEFAULT_RRF_K, type FusedItem, reciprocalRankFusion } from "./rrf.ts";
export { matchesFilter } from "./filter.ts";
export { analyze, stem, STOP_WORDS, words } from "./analyze.ts";
export { decodeDocumentCursor, encodeDocumentCursor } from "./document-cursor.ts";
export { mulberry32 } from "./random.ts";
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

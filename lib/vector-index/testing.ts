/**
 * Test doubles and references for code built on the library, and for the
 * library's own tests and benches: not needed to run an index. The package's
 * `./testing` export (`@sift/vector-index/testing`).
 *
 * - `memoryIndexLog`: an `IndexLog` in memory through the real record and
 *   checkpoint formats, counting its appends and checkpoints, startable from
 *   given (torn, damaged) bytes.
 * - `OkapiBm25`: the exhaustive BM25 the index's pruned BM25 is held to.
 * - `denseEmbedder`: deterministic clustered unit vectors, like a model's.
 * @module
 */
export { type MemoryIndexLog, memoryIndexLog } from "./fixtures/memory-log.ts";
export { OkapiBm25, type OkapiBm25Options } from "./fixtures/okapi-bm25.ts";
export { denseEmbedder } from "./fixtures/dense-embedder.ts";

/** A bulk build's worker: chunks in, a prepared piece (one encoded log record) out. */
import { type BulkPiece, prepareBulkPiece } from "../bulk.ts";
import type { IndexedChunk } from "../types.ts";
import { serveInWorker } from "./worker-pool.ts";

serveInWorker(
  (input: { chunks: IndexedChunk[]; namespace: string }) =>
    prepareBulkPiece(input.chunks, { namespace: input.namespace }),
  (piece: BulkPiece) => [piece.frame.buffer as ArrayBuffer],
);

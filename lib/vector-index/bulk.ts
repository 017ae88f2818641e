import { IndexInputError } from "./errors.ts";
import { prepareChunk } from "./prepared.ts";
import { decodeRecords, encodeRecord, type IndexRecord } from "./record.ts";
import type { IndexedChunk } from "./types.ts";

/**
 * One piece of a bulk build: chunks normalized, analyzed for BM25 and
 * encoded as one log record, by `prepareBulkPiece` in any thread (a worker's:
 * the stemmer is most of what a chunk costs to add), then handed over as
 * bytes (a transfer, not a copy) and appended to the log as they are.
 */
export type BulkPiece = { frame: Uint8Array };

/**
 * `chunks` for `namespace` as one record. `replace`: documents that end with
 * exactly their chunks in `chunks` (what the index held of them goes first).
 * The record holds one version of each: for a document given twice, pass its
 * last version's chunks only (merged by id, an earlier, longer version's
 * extra chunks would stay), so a chunk id given twice for a replaced document
 * is refused. Of other chunks sharing an id the last one stands, as with
 * upserts one after another.
 */
export function prepareBulkPiece(
  chunks: readonly IndexedChunk[],
  options: { namespace: string; replace?: readonly string[] },
): BulkPiece {
  const replaced = new Set(options.replace);
  const last = new Map<string, IndexedChunk>();
  for (const chunk of chunks) {
    if (last.has(chunk.id) && replaced.has(chunk.metadata.doc_id)) {
      throw new IndexInputError(
        `bulk piece: ${chunk.id} twice, and its document ${chunk.metadata.doc_id} is replaced: ` +
          "give a replaced document the chunks of its last version only",
      );
    }
    last.delete(chunk.id); // keep input order for the last of each id
    last.set(chunk.id, chunk);
  }
  const put = [...last.values()].map(prepareChunk);
  const record: IndexRecord = {
    namespace: options.namespace,
    remove: [...replaced],
    put,
  };
  return { frame: encodeRecord(record) };
}

/** The record a piece holds; a piece that is not one whole record is refused. */
export function readBulkPiece(piece: BulkPiece): IndexRecord {
  const { records, validBytes } = decodeRecords(piece.frame);
  if (records.length !== 1 || validBytes !== piece.frame.length) {
    throw new IndexInputError("bulk piece: not one whole record (make it with prepareBulkPiece)");
  }
  return records[0]!;
}

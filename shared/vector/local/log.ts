import type { IndexRecord } from "./record.ts";

/**
 * Where the embedded index's changes are kept, as a log of records. Deno's
 * entry gives a file (`FileIndexLog`); workerd has no file system, and there
 * the index lives in the Durable Object's SQLite storage instead.
 */
export interface IndexLog {
  readonly location: string;
  /** Every record, oldest first (a torn tail is cut off). */
  load(): Promise<IndexRecord[]>;
  /** Resolves once the record is durable: a crash after that cannot lose it. */
  append(record: IndexRecord): Promise<void>;
  /** Replaces the whole log with `records` (the live state), atomically. */
  compact(records: AsyncIterable<IndexRecord> | Iterable<IndexRecord>): Promise<void>;
}

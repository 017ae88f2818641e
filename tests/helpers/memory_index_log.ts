import type { IndexLog } from "../../shared/vector/local/log.ts";
import { decodeRecords, encodeRecord, type IndexRecord } from "../../shared/vector/local/record.ts";

/**
 * An IndexLog in memory that goes through the real binary encoding, counts
 * its appends and compactions, and can start from given bytes (a damaged log).
 */
export function memoryIndexLog(initial: Uint8Array = new Uint8Array()) {
  const log = {
    location: "memory://index.log",
    bytes: initial,
    appends: 0,
    compactions: 0,
    load(): Promise<IndexRecord[]> {
      const { records, validBytes, damagedAt } = decodeRecords(log.bytes);
      if (damagedAt !== undefined) return Promise.reject(new Error(`damaged at ${damagedAt}`));
      log.bytes = log.bytes.slice(0, validBytes);
      return Promise.resolve(records);
    },
    append(record: IndexRecord): Promise<void> {
      log.bytes = concat([log.bytes, encodeRecord(record)]);
      log.appends++;
      return Promise.resolve();
    },
    async compact(records: AsyncIterable<IndexRecord> | Iterable<IndexRecord>): Promise<void> {
      const frames: Uint8Array[] = [];
      for await (const record of records) frames.push(encodeRecord(record));
      log.bytes = concat(frames);
      log.compactions++;
    },
  } satisfies IndexLog & Record<string, unknown>;
  return log;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

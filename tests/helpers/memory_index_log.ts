import {
  checkpointFrames,
  decodeRecords,
  encodeRecord,
  type IndexLog,
  type IndexRecord,
  type NamespaceSnapshot,
  type NamespaceView,
  readCheckpoint,
} from "../../lib/vector-index/mod.ts";

/**
 * An IndexLog in memory that goes through the real binary formats (log
 * records and checkpoints), counts its appends and checkpoints, and can start
 * from given bytes (a torn or damaged log). `checkpointAt` lowers the size at
 * which the index checkpoints, so tests reach it with a few records.
 */
export function memoryIndexLog(
  initial: Uint8Array = new Uint8Array(),
  options: { checkpointAt?: number } = {},
) {
  const log = {
    location: "memory://index.log",
    bytes: initial,
    checkpointed: undefined as Uint8Array | undefined,
    appends: 0,
    checkpoints: 0,
    get tailBytes(): number {
      // Pretend to be this much bigger, so the index checkpoints at `checkpointAt`.
      return log.bytes.length +
        (options.checkpointAt ? 32 * 1024 * 1024 - options.checkpointAt : 0);
    },
    get checkpointBytes(): number {
      return log.checkpointed?.length ?? 0;
    },
    load(): Promise<{ checkpoint?: Map<string, NamespaceSnapshot>; records: IndexRecord[] }> {
      const { records, validBytes, damagedAt } = decodeRecords(log.bytes);
      if (damagedAt !== undefined) return Promise.reject(new Error(`damaged at ${damagedAt}`));
      log.bytes = log.bytes.slice(0, validBytes);
      const checkpoint = log.checkpointed && readCheckpoint(log.checkpointed).namespaces;
      return Promise.resolve({ ...(checkpoint ? { checkpoint } : {}), records });
    },
    append(record: IndexRecord): Promise<void> {
      log.bytes = concat([log.bytes, encodeRecord(record)]);
      log.appends++;
      return Promise.resolve();
    },
    checkpoint(namespaces: Map<string, NamespaceView>): Promise<void> {
      log.checkpointed = concat([...checkpointFrames(namespaces, log.checkpoints + 1)]);
      log.bytes = new Uint8Array();
      log.checkpoints++;
      return Promise.resolve();
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

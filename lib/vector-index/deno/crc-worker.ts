/**
 * A load's background check, off the thread that serves searches: the
 * CRC-32 of one section of a checkpoint, read from the file by the worker
 * itself through one small buffer (the loader reads the same bytes into
 * their final arrays; the file never changes once written).
 */
import { fastCrc32 } from "../kernel/crc.ts";
import { serveInWorker } from "./worker-pool.ts";

/** Bytes read at a time. */
const WINDOW = 4 << 20;

export type SectionCrcInput = { path: string; at: number; bytes: number };

serveInWorker(async ({ path, at, bytes }: SectionCrcInput) => {
  const file = await Deno.open(path, { read: true });
  try {
    await file.seek(at, Deno.SeekMode.Start);
    const window = new Uint8Array(Math.max(1, Math.min(WINDOW, bytes)));
    let crc = 0;
    for (let left = bytes; left > 0;) {
      const read = await file.read(window.subarray(0, Math.min(left, window.length)));
      if (read === null) throw new Error(`the file ends early, at byte ${at + bytes - left}`);
      crc = fastCrc32(window.subarray(0, read), crc);
      left -= read;
    }
    return crc;
  } finally {
    file.close();
  }
});

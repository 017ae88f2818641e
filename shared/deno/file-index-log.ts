import { SiftError } from "../errors.ts";
import { decodeRecords, encodeRecord, type IndexRecord } from "../vector/local/record.ts";
import type { IndexLog } from "../vector/local/log.ts";
import { legacySnapshotRecords } from "./legacy-snapshot.ts";

/**
 * The embedded index's log as a file (Deno only: imported by entries, never
 * by a Worker). Appends are written and fsynced before they resolve. A
 * rewrite goes to a temporary file that is fsynced and renamed over the log,
 * so a crash leaves the old log or the new one; temporary files a crash left
 * behind are removed at the next load, and so is a torn last record.
 */
export class FileIndexLog implements IndexLog {
  readonly location: string;
  #file: Deno.FsFile | undefined;
  /** Bytes of good records: an append that fails is cut back to this. */
  #size = 0;

  readonly #legacySnapshot: string | undefined;

  /** `legacySnapshot`: an older sift's `index.json`, moved into the log on first load. */
  constructor(path: string, options: { legacySnapshot?: string } = {}) {
    this.location = path;
    this.#legacySnapshot = options.legacySnapshot;
  }

  get #directory(): string {
    return this.location.replace(/\/[^/]*$/, "") || ".";
  }

  get #name(): string {
    return this.location.slice(this.location.lastIndexOf("/") + 1);
  }

  async load(): Promise<IndexRecord[]> {
    await Deno.mkdir(this.#directory, { recursive: true });
    for await (const entry of Deno.readDir(this.#directory)) {
      if (entry.name.startsWith(`${this.#name}.`) && entry.name.endsWith(".tmp")) {
        await Deno.remove(`${this.#directory}/${entry.name}`).catch(() => {});
      }
    }
    let bytes: Uint8Array;
    try {
      bytes = await Deno.readFile(this.location);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return await this.#migrate();
      throw error;
    }
    const { records, validBytes, damagedAt } = decodeRecords(bytes);
    if (damagedAt !== undefined) {
      throw new SiftError(
        "internal_error",
        500,
        `The index log ${this.location} is damaged at byte ${damagedAt}; nothing was changed`,
      );
    }
    this.#size = validBytes;
    if (validBytes < bytes.length) {
      // A record torn by a crash was never acknowledged: cut it, so appends follow good data.
      await Deno.truncate(this.location, validBytes);
    }
    return records;
  }

  /** An older sift's JSON snapshot becomes the log (written whole first, then the JSON goes). */
  async #migrate(): Promise<IndexRecord[]> {
    this.#size = 0;
    const legacy = this.#legacySnapshot;
    const records = legacy ? await legacySnapshotRecords(legacy) : undefined;
    if (!legacy || !records) return [];
    await this.compact(records);
    await Deno.remove(legacy);
    return records;
  }

  async append(record: IndexRecord): Promise<void> {
    const file = this.#file ??= await Deno.open(this.location, {
      create: true,
      append: true,
    });
    const frame = encodeRecord(record);
    try {
      await writeAll(file, frame);
      await file.syncData();
    } catch (error) {
      // Half a frame must not sit before the next record: cut back to the last good one.
      await Deno.truncate(this.location, this.#size).catch(() => {});
      throw error;
    }
    this.#size += frame.length;
  }

  async compact(records: AsyncIterable<IndexRecord> | Iterable<IndexRecord>): Promise<void> {
    const temporary = `${this.location}.${crypto.randomUUID()}.tmp`;
    const file = await Deno.open(temporary, { create: true, write: true, truncate: true });
    let size = 0;
    try {
      for await (const record of records) {
        const frame = encodeRecord(record);
        await writeAll(file, frame);
        size += frame.length;
      }
      await file.syncData();
    } catch (error) {
      file.close();
      await Deno.remove(temporary).catch(() => {});
      throw error;
    }
    file.close();
    this.#file?.close();
    this.#file = undefined;
    await Deno.rename(temporary, this.location);
    this.#size = size;
  }

  /** Closes the append handle (tests, shutdown); the next append reopens it. */
  close(): void {
    this.#file?.close();
    this.#file = undefined;
  }
}

async function writeAll(file: Deno.FsFile, bytes: Uint8Array): Promise<void> {
  let written = 0;
  while (written < bytes.length) written += await file.write(bytes.subarray(written));
}

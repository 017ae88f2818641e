import { SiftError } from "../errors.ts";
import { checkpointFrames, readCheckpoint } from "../vector/local/checkpoint.ts";
import type { IndexLog } from "../vector/local/log.ts";
import { decodeRecords, encodeRecord, type IndexRecord } from "../vector/local/record.ts";
import type { NamespaceSnapshot } from "../vector/local/snapshot.ts";
import { legacySnapshotRecords } from "./legacy-snapshot.ts";

/**
 * The embedded index on disk (Deno only: imported by entries, never by a
 * Worker): `index.ckpt`, a checkpoint of generation g, and `index.<g>.log`
 * (`index.log` before the first checkpoint), the records since. Appends are
 * fsynced before they resolve. A checkpoint is written to a temporary file,
 * fsynced and renamed over the old one; only then is the old log removed, so
 * a crash at any point leaves a checkpoint and the log that follows it.
 * Temporary files and superseded logs a crash left are removed at load, and
 * so is a torn last record.
 */
export class FileIndexLog implements IndexLog {
  readonly location: string;
  readonly #base: string;
  readonly #legacySnapshot: string | undefined;
  #file: Deno.FsFile | undefined;
  #generation = 0;
  /** Bytes of good records in the current log: a failed append is cut back to this. */
  #size = 0;
  #checkpointBytes = 0;

  /** `path`: `…/index.log`. `legacySnapshot`: an older sift's `index.json`, taken over on first load. */
  constructor(path: string, options: { legacySnapshot?: string } = {}) {
    this.location = path;
    this.#base = path.replace(/\.log$/, "");
    this.#legacySnapshot = options.legacySnapshot;
  }

  get tailBytes(): number {
    return this.#size;
  }

  get checkpointBytes(): number {
    return this.#checkpointBytes;
  }

  get #directory(): string {
    return this.#base.replace(/\/[^/]*$/, "") || ".";
  }

  get #baseName(): string {
    return this.#base.slice(this.#base.lastIndexOf("/") + 1);
  }

  #logPath(generation: number): string {
    return generation === 0 ? this.location : `${this.#base}.${generation}.log`;
  }

  async load(): Promise<{ checkpoint?: Map<string, NamespaceSnapshot>; records: IndexRecord[] }> {
    await Deno.mkdir(this.#directory, { recursive: true });
    const checkpoint = await this.#readCheckpoint();
    this.#generation = checkpoint?.generation ?? 0;
    await this.#removeLeftovers();
    const records = await this.#readLog();
    if (!checkpoint && records.length === 0) return { records: await this.#migrate() };
    return { ...(checkpoint ? { checkpoint: checkpoint.namespaces } : {}), records };
  }

  async #readCheckpoint() {
    let bytes: Uint8Array;
    try {
      bytes = await Deno.readFile(`${this.#base}.ckpt`);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return undefined;
      throw error;
    }
    this.#checkpointBytes = bytes.length;
    try {
      return readCheckpoint(bytes);
    } catch (error) {
      throw new SiftError(
        "internal_error",
        500,
        `The index checkpoint ${this.#base}.ckpt is damaged`,
        {
          cause: error,
        },
      );
    }
  }

  /** Temporary files, and logs older than the checkpoint (a crash between rename and delete). */
  async #removeLeftovers(): Promise<void> {
    const current = this.#logPath(this.#generation);
    for await (const entry of Deno.readDir(this.#directory)) {
      const path = `${this.#directory}/${entry.name}`;
      const ours = entry.name.startsWith(`${this.#baseName}.`);
      const temporary = ours && entry.name.endsWith(".tmp");
      const staleLog = ours && entry.name.endsWith(".log") && path !== current &&
        /^\.(\d+\.)?log$/.test(entry.name.slice(this.#baseName.length));
      if (temporary || staleLog) await Deno.remove(path).catch(() => {});
    }
  }

  async #readLog(): Promise<IndexRecord[]> {
    const path = this.#logPath(this.#generation);
    let bytes: Uint8Array;
    try {
      bytes = await Deno.readFile(path);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) {
        this.#size = 0;
        return [];
      }
      throw error;
    }
    const { records, validBytes, damagedAt } = decodeRecords(bytes);
    if (damagedAt !== undefined) {
      throw new SiftError(
        "internal_error",
        500,
        `The index log ${path} is damaged at byte ${damagedAt}; nothing was changed`,
      );
    }
    if (validBytes < bytes.length) {
      // A record torn by a crash was never acknowledged: cut it, so appends follow good data.
      await Deno.truncate(path, validBytes);
    }
    this.#size = validBytes;
    return records;
  }

  /** An older sift's JSON snapshot becomes log records (appended and fsynced first, then the JSON goes). */
  async #migrate(): Promise<IndexRecord[]> {
    const legacy = this.#legacySnapshot;
    const records = legacy ? await legacySnapshotRecords(legacy) : undefined;
    if (!legacy || !records) return [];
    for (const record of records) await this.append(record);
    await Deno.remove(legacy);
    return records;
  }

  async append(record: IndexRecord): Promise<void> {
    const path = this.#logPath(this.#generation);
    const file = this.#file ??= await Deno.open(path, { create: true, append: true });
    const frame = encodeRecord(record);
    try {
      await writeAll(file, frame);
      await file.syncData();
    } catch (error) {
      // Half a frame must not sit before the next record: cut back to the last good one.
      await Deno.truncate(path, this.#size).catch(() => {});
      throw error;
    }
    this.#size += frame.length;
  }

  async checkpoint(namespaces: Map<string, NamespaceSnapshot>): Promise<void> {
    const generation = this.#generation + 1;
    const temporary = `${this.#base}.ckpt.${crypto.randomUUID()}.tmp`;
    const file = await Deno.open(temporary, { create: true, write: true, truncate: true });
    let size = 0;
    try {
      for (const frame of checkpointFrames(namespaces, generation)) {
        await writeAll(file, frame);
        size += frame.length;
      }
      await file.syncData();
    } catch (error) {
      await Deno.remove(temporary).catch(() => {});
      throw error;
    } finally {
      file.close();
    }
    await Deno.rename(temporary, `${this.#base}.ckpt`);
    // From here the checkpoint holds everything: the old log is only garbage.
    const previous = this.#logPath(this.#generation);
    this.#file?.close();
    this.#file = undefined;
    this.#generation = generation;
    this.#size = 0;
    this.#checkpointBytes = size;
    await Deno.remove(previous).catch(() => {});
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

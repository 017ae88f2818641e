import { closeSync, openSync, readSync } from "node:fs";
import { IndexDamagedError } from "../errors.ts";
import { CheckpointReader } from "../checkpoint.ts";
import {
  checkFill,
  checkLater,
  checkpointSections,
  type Fill,
  FOOTER_BYTES,
  isFormat2,
  parseDirectory,
  planNamespace,
  readFooter,
  type Section,
  SectionDamage,
} from "../checkpoint-v2.ts";
import type { RandomAccess } from "../stored-rows.ts";
import type { IndexLog, RecoveredTail } from "../log.ts";
import { decodeRecords, encodeRecord, type IndexRecord } from "../record.ts";
import type { NamespaceSnapshot, NamespaceView } from "../snapshot.ts";
import { legacySnapshotRecords } from "./legacy-snapshot.ts";
import { RecoveryNote } from "./recovery-note.ts";
import type { SectionCrcInput } from "./crc-worker.ts";
import { mapInWorkers } from "./worker-pool.ts";
import { writeAll } from "./write-all.ts";

/**
 * The embedded index on disk (Deno only: imported by entries, never by a
 * Worker): `index.ckpt`, a checkpoint of generation g, and the logs of
 * generation g and later (`index.<g>.log`; `index.log` is generation 0), the
 * records since. Appends are fsynced before they resolve. A checkpoint of
 * generation g + 1 first moves appends to log g + 1, then is written to a
 * temporary file, fsynced and renamed over the old one; only then is log g
 * removed. A crash at any point leaves a checkpoint and every log after it.
 * Temporary files and logs older than the checkpoint are removed at load, and
 * so is a torn last record, noted first in `index.recovered.json` until
 * someone acknowledges it.
 */
export class FileIndexLog implements IndexLog {
  readonly location: string;
  readonly #base: string;
  readonly #legacySnapshot: string | undefined;
  readonly #deferFromBytes: number | undefined;
  #file: Deno.FsFile | undefined;
  /** The generation appends go to (the checkpoint being written, or the last one). */
  #generation = 0;
  /** Bytes of good records in the log appends go to: a failed append is cut back to this. */
  #size = 0;
  /** Bytes of records since the last checkpoint (in every log after it). */
  #tail = 0;
  #checkpointBytes = 0;
  #recovered: RecoveredTail[] = [];
  readonly #note: RecoveryNote;
  /**
   * The format-2 checkpoint the last load read: its residual rows and texts
   * are read from it on demand, so when a newer checkpoint replaces it, it
   * is kept under another name (a hard link) until the next start.
   */
  #loaded: CheckpointFile | undefined;
  /** The loaded checkpoint's checksums still being checked: no checkpoint is written before. */
  #verified: Promise<void> | undefined;

  /**
   * `path`: `…/index.log`. `legacySnapshot`: an older sift's `index.json`,
   * taken over on first load. `deferFromBytes`: sections a search can do
   * without for a while are read after the index serves from this size on
   * (`DEFER_FROM_BYTES`; tests set 0).
   */
  constructor(path: string, options: { legacySnapshot?: string; deferFromBytes?: number } = {}) {
    this.location = path;
    this.#base = path.replace(/\.log$/, "");
    this.#legacySnapshot = options.legacySnapshot;
    this.#deferFromBytes = options.deferFromBytes;
    this.#note = new RecoveryNote(`${this.#base}.recovered.json`);
  }

  get tailBytes(): number {
    return this.#tail;
  }

  get checkpointBytes(): number {
    return this.#checkpointBytes;
  }

  get recovered(): readonly RecoveredTail[] {
    return this.#recovered;
  }

  /** Removes the note of cut records (read again from disk: it is the truth); resolves to what it held. */
  async acknowledgeRecovered(): Promise<readonly RecoveredTail[]> {
    const acknowledged = await this.#note.remove();
    this.#recovered = [];
    return acknowledged;
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

  async load(): Promise<
    {
      checkpoint?: Map<string, NamespaceSnapshot>;
      records: IndexRecord[];
      verified?: Promise<void>;
    }
  > {
    await Deno.mkdir(this.#directory, { recursive: true });
    this.#recovered = await this.#note.read();
    const checkpoint = await this.#readCheckpoint();
    const logs = await this.#logGenerations();
    const from = checkpoint?.generation ?? 0;
    await this.#removeLeftovers(from);
    const records: IndexRecord[] = [];
    const later = logs.filter((generation) => generation >= from);
    for (const generation of later) {
      // Only the newest log can have a torn tail: appends never go back to an older one.
      records.push(...await this.#readLog(generation, generation === later.at(-1)));
    }
    this.#generation = later.at(-1) ?? from;
    if (!checkpoint && records.length === 0) return { records: await this.#migrate() };
    this.#file = undefined;
    const path = `${this.#base}.ckpt`;
    const named = (error: unknown) =>
      error instanceof SectionDamage
        ? new IndexDamagedError({
          file: path,
          offset: error.offset,
          why: error.message,
          cause: error,
        })
        : error;
    const deferred: Fill[] = checkpoint && "later" in checkpoint ? checkpoint.later as Fill[] : [];
    const unread: Fill[] = checkpoint && "background" in checkpoint
      ? checkpoint.background as Fill[]
      : [];
    let background: Promise<void> | undefined;
    if (unread.length > 0) {
      // A log to replay changes postings and rows: then they are read before the index serves.
      const warm = checkpoint && "byPosition" in checkpoint
        ? checkpoint.byPosition as Section[]
        : [];
      background = readInBackground(path, unread, warm).catch((error) => {
        throw named(error);
      });
      if (records.length > 0) await background;
      background.catch(() => {}); // the index hears of it through `background` and `verified`
    }
    const verified = deferred.length === 0 && !background ? undefined : (async () => {
      await background;
      await checkLater(deferred).catch((error) => {
        throw named(error);
      });
    })();
    verified?.catch(() => {}); // the index hears of it through `verified`
    this.#verified = verified;
    return {
      ...(checkpoint ? { checkpoint: checkpoint.namespaces } : {}),
      records,
      ...(verified ? { verified } : {}),
      ...(background ? { background } : {}),
    };
  }

  async #readCheckpoint() {
    this.#loaded = undefined;
    this.#size = 0;
    this.#tail = 0;
    let file: Deno.FsFile;
    try {
      file = await Deno.open(`${this.#base}.ckpt`, { read: true });
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return undefined;
      throw error;
    }
    try {
      const size = (await file.stat()).size;
      this.#checkpointBytes = size;
      const head = new Uint8Array(Math.min(8, size));
      await readExactly(file, head);
      if (isFormat2(head)) {
        this.#loaded = new CheckpointFile(`${this.#base}.ckpt`);
        return await readSections(file, size, this.#loaded, this.#deferFromBytes);
      }
      await file.seek(0, Deno.SeekMode.Start);
      this.#loaded = undefined;
      return await readFrames(file, size);
    } catch (error) {
      if (error instanceof SectionDamage) {
        throw new IndexDamagedError({
          file: `${this.#base}.ckpt`,
          offset: error.offset,
          why: error.message,
          cause: error,
        });
      }
      if (!(error instanceof CheckpointDamage)) throw error;
      throw new IndexDamagedError({
        file: `${this.#base}.ckpt`,
        offset: error.offset,
        why: error.message,
        cause: error,
      });
    } finally {
      file.close();
    }
  }

  /** The generations of the logs on disk, oldest first. */
  async #logGenerations(): Promise<number[]> {
    const generations: number[] = [];
    for await (const entry of Deno.readDir(this.#directory)) {
      const generation = this.#generationOf(entry.name);
      if (generation !== undefined) generations.push(generation);
    }
    return generations.sort((a, b) => a - b);
  }

  #generationOf(name: string): number | undefined {
    if (!name.startsWith(`${this.#baseName}.`)) return undefined;
    const match = /^\.(?:(\d+)\.)?log$/.exec(name.slice(this.#baseName.length));
    return match ? Number(match[1] ?? 0) : undefined;
  }

  /** Temporary files, and logs older than the checkpoint (a crash between rename and delete). */
  async #removeLeftovers(checkpointGeneration: number): Promise<void> {
    for await (const entry of Deno.readDir(this.#directory)) {
      const generation = this.#generationOf(entry.name);
      // `.kept`: a checkpoint an earlier process still read from; nothing reads it now.
      const temporary = entry.name.startsWith(`${this.#baseName}.`) &&
        (entry.name.endsWith(".tmp") || entry.name.endsWith(".kept"));
      if (temporary || (generation !== undefined && generation < checkpointGeneration)) {
        await Deno.remove(`${this.#directory}/${entry.name}`).catch(() => {});
      }
    }
  }

  async #readLog(generation: number, newest: boolean): Promise<IndexRecord[]> {
    const path = this.#logPath(generation);
    let bytes: Uint8Array;
    try {
      bytes = await Deno.readFile(path);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return [];
      throw error;
    }
    const { records, validBytes, damagedAt } = decodeRecords(bytes);
    if (damagedAt !== undefined || (!newest && validBytes < bytes.length)) {
      throw new IndexDamagedError({
        file: path,
        offset: damagedAt ?? validBytes,
        why: damagedAt === undefined
          ? "an older log ends in a torn record"
          : "a record fails its checksum, with records after it",
      });
    }
    if (validBytes < bytes.length) {
      // A record torn by a crash was never acknowledged: cut it, so appends follow good data.
      // Said aloud, since it could also be a byte flipped in the last acknowledged record: the
      // operator learns which file, where, and how much, here and on /healthz until someone
      // acknowledges it (Postgres and SQLite say so too when they end replay at a bad tail
      // record). Noted on disk before the cut, so no restart forgets it.
      const recovered = {
        file: path,
        offset: validBytes,
        dropped_records: 1,
        dropped_bytes: bytes.length - validBytes,
        at: new Date().toISOString(),
      };
      console.error(
        `index log ${path}: the last record (byte ${validBytes} on, ` +
          `${recovered.dropped_bytes} bytes) is torn or fails its checksum; cut it ` +
          `(${recovered.dropped_records} record dropped). A crash mid-append tears only a ` +
          "record that was never acknowledged.",
      );
      await this.#note.write([...this.#recovered, recovered]);
      this.#recovered = [...this.#recovered, recovered];
      await Deno.truncate(path, validBytes);
    }
    this.#size = validBytes; // the newest log is read last: appends continue it
    this.#tail += validBytes;
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

  append(record: IndexRecord): Promise<void> {
    return this.appendEncoded(encodeRecord(record));
  }

  async appendEncoded(frame: Uint8Array): Promise<void> {
    const path = this.#logPath(this.#generation);
    const file = this.#file ??= await Deno.open(path, { create: true, append: true });
    try {
      await writeAll(file, frame);
      await file.syncData();
    } catch (error) {
      // Half a frame must not sit before the next record: cut back to the last good one.
      await Deno.truncate(path, this.#size).catch(() => {});
      throw error;
    }
    this.#size += frame.length;
    this.#tail += frame.length;
  }

  checkpoint(
    namespaces: Map<string, NamespaceView>,
    options: { signal?: AbortSignal } = {},
  ): Promise<void> {
    // Appends from now on belong after this checkpoint: they go to the next log.
    const previous = this.#logPath(this.#generation);
    const generation = ++this.#generation;
    const covered = this.#tail;
    this.#file?.close();
    this.#file = undefined;
    this.#size = 0;
    this.#tail = 0;
    return this.#writeCheckpoint(namespaces, generation, previous, options.signal).catch(
      (error) => {
        // Its logs stay, so their records are still a tail the next checkpoint must cover.
        this.#tail += covered;
        throw error;
      },
    );
  }

  async #writeCheckpoint(
    namespaces: Map<string, NamespaceView>,
    generation: number,
    previous: string,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    // Unchecked bytes must not go into a checkpoint with new checksums: damage would be laundered.
    await this.#verified;
    signal?.throwIfAborted();
    const temporary = `${this.#base}.ckpt.${crypto.randomUUID()}.tmp`;
    const file = await Deno.open(temporary, { create: true, write: true, truncate: true });
    let size = 0;
    try {
      for (const frame of checkpointSections(namespaces, generation)) {
        signal?.throwIfAborted();
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
    const loaded = this.#loaded;
    if (loaded?.path === `${this.#base}.ckpt`) {
      // The index still reads rows and texts from the checkpoint it loaded: keep that file.
      const kept = `${this.#base}.ckpt.${crypto.randomUUID()}.kept`;
      await Deno.link(loaded.path, kept);
      loaded.path = kept;
    }
    await Deno.rename(temporary, `${this.#base}.ckpt`);
    // From here the checkpoint holds everything the older logs did: they are only garbage. More
    // than one is left when a crash cut off the checkpoint that should have removed the others.
    this.#checkpointBytes = size;
    await Deno.remove(previous).catch(() => {});
    for (const older of await this.#logGenerations()) {
      if (older < generation) await Deno.remove(this.#logPath(older)).catch(() => {});
    }
  }

  /** Closes the append handle (tests, shutdown); the next append reopens it. */
  close(): void {
    this.#file?.close();
    this.#file = undefined;
  }
}

/**
 * A checkpoint's frames read one ahead of the one being parsed: each read
 * takes a frame's payload and the next frame's header, and is issued before
 * the frame before it is checked and copied, so the file's read (a thread of
 * Deno's) and the parse (the isolate's) overlap and a restart costs about the
 * longer of the two, not both. Each frame gets a buffer of its own: texts
 * stay views into it, the rest is copied out and the buffer goes.
 */
/** A checkpoint that fails its checks, and the byte where the frame that failed begins. */
class CheckpointDamage extends Error {
  constructor(why: string, readonly offset: number) {
    super(why.replace(/^checkpoint damaged: /, ""));
  }
}

async function readFrames(file: Deno.FsFile, size: number) {
  try {
    return await readFramesFrom(file, size);
  } catch (error) {
    if (error instanceof CheckpointDamage) throw error;
    // The reader's own checks throw plain errors; the position is that of the frame being read.
    const offset = (error as { frameAt?: number }).frameAt ?? 0;
    if (error instanceof Error && /^checkpoint damaged/.test(error.message)) {
      throw new CheckpointDamage(error.message, offset);
    }
    throw error;
  }
}

async function readFramesFrom(file: Deno.FsFile, size: number) {
  const reader = new CheckpointReader();
  const damaged = (why: string, at = 0) => new CheckpointDamage(why, at);
  /** The frame at `at` whose header is `head`, and the header of the frame after it. */
  const readFrame = async (at: number, head: Uint8Array) => {
    const length = new DataView(head.buffer, head.byteOffset, 8).getUint32(0, true);
    const end = at + 8 + length;
    if (end > size) throw damaged(`the frame at byte ${at} is cut short`, at);
    const following = end + 8 <= size ? 8 : 0;
    const bytes = new Uint8Array(8 + length + following);
    bytes.set(head);
    await readExactly(file, bytes.subarray(8));
    return {
      frame: bytes.subarray(0, 8 + length),
      next: following ? bytes.slice(8 + length) : undefined,
    };
  };
  if (size < 8) throw damaged("no end frame", size);
  const first = new Uint8Array(8);
  await readExactly(file, first);
  let at = 0;
  // A read still under way when a frame turns out damaged must not reject unheard.
  const ahead = (at: number, head: Uint8Array) => {
    const read = readFrame(at, head);
    read.catch(() => {});
    return read;
  };
  let pending = ahead(0, first);
  for (;;) {
    const { frame, next } = await pending;
    const frameAt = at;
    at += frame.length;
    if (next) pending = ahead(at, next);
    let ended: boolean;
    try {
      ended = reader.read(frame, frameAt);
    } catch (error) {
      throw error instanceof Error ? Object.assign(error, { frameAt }) : error;
    }
    if (ended) {
      if (at !== size) throw damaged("the end frame does not close it", at);
      return reader.result();
    }
    if (!next) throw damaged("no end frame", at);
  }
}

async function readExactly(file: Deno.FsFile, into: Uint8Array): Promise<void> {
  let filled = 0;
  while (filled < into.length) {
    const read = await file.read(into.subarray(filled));
    if (read === null) throw new CheckpointDamage("the file ends early", 0);
    filled += read;
  }
}

/**
 * A checkpoint file read by position on demand (a search's residual rows, a
 * hit's text), at the path it has now (`FileIndexLog` moves it aside when a
 * newer checkpoint takes its name). Opened at the first read of a task and
 * closed when the task's synchronous work is done: a search's residual rows
 * and all its hits' texts share one open (it was one per hit), and no handle
 * is left open between tasks (a rename between them changes nothing). Each
 * read is one positioned read (`node:fs`'s `readSync` with a position is a
 * `pread`): `Deno.FsFile` needs a seek and a read, and in a profile at 100k
 * chunks the seeks took twice the reads' time; without them a hybrid search
 * (200 residual rows) went from 6.3 to 5.8 ms in-process.
 */
class CheckpointFile implements RandomAccess {
  path: string;
  #fd: number | undefined;

  constructor(path: string) {
    this.path = path;
  }

  get file(): string {
    return this.path;
  }

  batch<T>(work: () => T): T {
    this.#handle();
    return work();
  }

  #handle(): number {
    if (this.#fd === undefined) {
      const fd = openSync(this.path, "r");
      this.#fd = fd;
      queueMicrotask(() => {
        closeSync(fd);
        this.#fd = undefined;
      });
    }
    return this.#fd;
  }

  readSync(at: number, into: Uint8Array): void {
    this.batch(() => {
      const fd = this.#handle();
      let filled = 0;
      while (filled < into.length) {
        const read = readSync(fd, into, filled, into.length - filled, at + filled);
        if (read === 0) throw new SectionDamage("the file ends early", at + filled);
        filled += read;
      }
    });
  }
}

/**
 * A format-2 checkpoint: its directory, then every section a search scans
 * read with one read each straight into its final buffer, each checked
 * against its CRC while the next one is read (the read is a thread of
 * Deno's, the check the isolate's). Residual rows and texts stay in the file.
 */
async function readSections(
  file: Deno.FsFile,
  size: number,
  access: RandomAccess,
  deferFromBytes: number | undefined,
) {
  if (size < 8 + FOOTER_BYTES) throw new SectionDamage("no end: the file was cut short", 0);
  const footerBytes = new Uint8Array(FOOTER_BYTES);
  await readAt(file, size - FOOTER_BYTES, footerBytes);
  const footer = readFooter(footerBytes, size);
  const directoryBytes = new Uint8Array(footer.bytes);
  await readAt(file, footer.at, directoryBytes);
  const directory = parseDirectory(directoryBytes, footer.crc, footer.at);
  const namespaces = new Map<string, NamespaceSnapshot>();
  const later: Fill[] = [];
  const background: Fill[] = [];
  const byPosition: Section[] = [];
  for (const entry of directory.namespaces) {
    const plan = planNamespace(
      entry,
      access,
      deferFromBytes === undefined ? {} : { deferFromBytes },
    );
    byPosition.push(...plan.byPosition);
    let checking: Promise<void> = Promise.resolve();
    for (const fill of plan.fills) {
      const { at, bytes } = fill.section;
      if (at + bytes > footer.at) {
        throw new SectionDamage(`the section ${fill.name} runs past the end`, at);
      }
      if (fill.background) {
        background.push(fill);
        continue;
      }
      const read = readAt(file, at, fill.into);
      // Damage found by the check below closes the file under this read: its rejection is moot.
      read.catch(() => {});
      await checking; // the previous section's check ran while this one was read
      await read;
      if (fill.later) {
        later.push(fill);
        continue;
      }
      checking = new Promise<void>((resolve) => setTimeout(resolve, 0)).then(() => checkFill(fill));
      checking.catch(() => {});
    }
    await checking;
    namespaces.set(entry.namespace, plan.finish());
  }
  return { generation: directory.generation, namespaces, later, background, byPosition };
}

/**
 * Reads sections a search can do without for a while (`Fill.background`)
 * into their buffers after the index serves, through a handle of its own,
 * has each checked whole (in a worker; on this thread, a slice per turn,
 * where no worker can start), hands it over, then touches its pages; and
 * meanwhile warms the page cache for what searches read by position. The
 * reads are threads of Deno's: searches go on meanwhile.
 */
async function readInBackground(path: string, fills: Fill[], warm: Section[]): Promise<void> {
  const file = await Deno.open(path, { read: true });
  // A column whose entries carry their own CRCs is checked entry by entry, when read.
  const checked = fills.filter((fill) => !fill.perEntry);
  // The CRCs are computed in a worker, which reads the file itself, a section ahead of this loop:
  // about 3 s of a thread's time at 300k chunks, which searches would otherwise wait behind.
  const crcs = mapInWorkers<SectionCrcInput, number>(
    new URL("./crc-worker.ts", import.meta.url),
    checked.map((fill) => ({ path, at: fill.section.at, bytes: fill.section.bytes })),
    { workers: 1, inFlight: 2 },
  );
  let workerFailed = false;
  try {
    await Promise.all([
      (async () => {
        for (const fill of fills) {
          await readAt(file, fill.section.at, fill.into);
          if (!fill.perEntry) {
            const crc = workerFailed ? undefined : await crcs.next().then(
              (next) => next.done ? undefined : next.value,
              () => undefined,
            );
            if (crc === undefined) {
              workerFailed = true; // no worker here: checked on this thread, a slice per turn
              await checkLater([{ ...fill, later: () => fill.into }]);
            } else if (crc !== fill.section.crc) {
              throw new SectionDamage(
                `the section ${fill.name} fails its checksum`,
                fill.section.at,
              );
            }
          }
          await fill.background!();
          await touchPages(fill.into);
        }
      })(),
      warmPageCache(path, warm),
    ]);
  } finally {
    file.close();
    await crcs.return(undefined).catch(() => {});
  }
}

/** Pages `touchPages` reads per turn of the event loop (1 MB: about 3 ms here). */
const TOUCH_PAGES_PER_TURN = 256;

/**
 * Reads one byte of every 4 KB page of a buffer a read just filled, a
 * slice per turn of the event loop. On this kind of VM, memory the kernel
 * wrote (a read's copy) costs about 3 ms/MB at its first access from the
 * process, as if it were fresh (`minflt` does not move: the host pays it);
 * paid here, while the start still warms, not by the first hundred searches
 * after it (each touching some 2,000 scattered rows: 30 ms instead of 6 at
 * 300k chunks).
 */
async function touchPages(bytes: Uint8Array): Promise<void> {
  let sum = 0;
  for (let at = 0; at < bytes.length;) {
    await new Promise((resolve) => setTimeout(resolve, 0));
    const end = Math.min(bytes.length, at + TOUCH_PAGES_PER_TURN * 4096);
    for (; at < end; at += 4096) sum += bytes[at]!;
  }
  if (sum < 0) throw new Error("unreachable"); // keeps the reads from being optimized away
}

/** Bytes read at a time by `warmPageCache`, into one buffer. */
const WARM_WINDOW = 4 << 20;

/**
 * Reads the sections searches read by position (residual rows, texts) once,
 * start to end, through one small buffer, so the system's page cache holds
 * them: after a restart they may be on disk only, and a search's hundred
 * scattered rows would each wait for the disk (the first searches after a
 * start took twice as long). Costs no memory of the process; a failure only
 * leaves the cache cold.
 */
async function warmPageCache(path: string, sections: Section[]): Promise<void> {
  const file = await Deno.open(path, { read: true }).catch(() => undefined);
  if (!file) return;
  const window = new Uint8Array(WARM_WINDOW);
  try {
    for (const section of sections) {
      await file.seek(section.at, Deno.SeekMode.Start);
      for (let left = section.bytes; left > 0;) {
        const read = await file.read(window.subarray(0, Math.min(left, WARM_WINDOW)));
        if (read === null) break;
        left -= read;
      }
    }
  } catch {
    // Only the cache stays cold.
  } finally {
    file.close();
  }
}

async function readAt(file: Deno.FsFile, at: number, into: Uint8Array): Promise<void> {
  await file.seek(at, Deno.SeekMode.Start);
  let filled = 0;
  while (filled < into.length) {
    const read = await file.read(into.subarray(filled));
    if (read === null) throw new SectionDamage("the file ends early", at + filled);
    filled += read;
  }
}

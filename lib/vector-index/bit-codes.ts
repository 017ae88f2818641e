import { createDotKernel, type DotKernel, PAGE_BYTES } from "./kernel/kernel.ts";
import { hammingPass } from "./kernel/helper.ts";
import type { PendingRows } from "./dense-rows.ts";

/**
 * One bit per dimension of each dense row (its first 1,024 dimensions):
 * whether the row lies above the namespace's mean on that dimension. Real embeddings share a large common
 * component, so signs are taken after subtracting the mean (estimated once,
 * from the rows held when the codes start, and kept with them). The
 * Hamming distance between two codes tracks the angle between the vectors:
 * a search counts differing bits over every row (popcount, about six times
 * faster than the int8 dot products), keeps the nearest few hundred, and
 * rescores only those with their int8 rows. Codes stop at 1,024 dimensions:
 * at 1M rows the count is bound by memory bandwidth, and the first 1,024 of
 * 1,536 lose no recall once the int8 rows rescore (OpenAI's models put the
 * most in the first dimensions, which is why `dimensions` can cut them).
 * Codes are computed per row as it arrives, so the structure builds with
 * ingest and needs no training.
 */
export const CODE_DIMENSIONS = 1024;
/**
 * Each full code's first 256 bits, also kept apart and packed (32 bytes a
 * row), for a first pass over large namespaces: the pass reads a quarter of
 * the memory (32 MB at 1M rows instead of 128 MB), keeps `PREFIX_WIDENING`
 * times the candidates wanted, a middle pass over those rows' next 256 bits
 * keeps `SECOND_WIDENING` times, and the full codes of those alone pick the
 * candidates. 256 bits tell rows apart less well than 1,024 (on 50k rows
 * they needed 8× the candidates for the same recall), so the first pass
 * keeps 32×: on the bench's 1M ARAGOG-text vectors, forced on, 24× gave
 * recall@10 0.991 against a full scan over 107 questions, 32× 0.992 and 48×
 * 0.995. It runs only where that is at most `1 / PREFIX_MIN_ROWS_PER_KEPT`
 * of the rows, past about 1M rows at 2,000 candidates: at 1M one pass over
 * the full codes was as fast through the server (dense p50 17.9 ms, against
 * 17.1 with the three passes and 26 with the first pass and the full codes
 * alone, each config in turn on one 1M checkpoint) and ranks by all 1,024 bits
 * (recall 1.000).
 */
const PREFIX_BYTES = 32;
/** How much of the codes a search streams from the file at a time while a load reads them in. */
const PENDING_WINDOW_BYTES = 2 << 20;
const PREFIX_WIDENING = 32;
const PREFIX_MIN_ROWS_PER_KEPT = 16;
/**
 * The codes' next 256 bits (after the prefix's), packed alike, for the
 * middle pass. Reading the first pass's rows' full codes (128 bytes each,
 * scattered over 128 MB at 1M rows) cost as much as a pass over all of them
 * (7 ms for 48,000 of 1M rows with the cache cold; 11.7 ms a search in the
 * server); 32 bytes of each from a packed 32 MB cost a third of that. 4×
 * lost a tenth of the full codes' nearest 15 of 8,000 random rows (the unit
 * test), 8× none. Derived from the full codes: a checkpoint does not store
 * them.
 */
const SECOND_WIDENING = 8;
/** Rows whose middle slices a load derives per turn of the event loop (256 KB of them). */
const SECOND_ROWS_PER_TURN = 8192;

export class BitCodes {
  readonly mean: Float32Array;
  readonly stride: number;
  readonly #kernel: DotKernel;
  /** The codes' first `PREFIX_BYTES`, packed; only for codes at least four times as long. */
  readonly #prefix: DotKernel | undefined;
  /** The codes' next `PREFIX_BYTES` (`SECOND_WIDENING`), packed; wherever there are prefixes. */
  readonly #second: DotKernel | undefined;
  /** Whether every row's middle slice is in `#second` (a load derives them after it serves). */
  #secondReady = true;
  #capacity: number;
  #count = 0;
  #prefixesReady = true;
  /** Codes a load is still reading in (`codesLater`). */
  #pending: PendingRows | undefined;

  /** `mean`: the rows' mean over the dimensions coded (at most `CODE_DIMENSIONS`). */
  constructor(mean: Float32Array, capacity = 1024) {
    this.mean = mean.length > CODE_DIMENSIONS ? mean.slice(0, CODE_DIMENSIONS) : mean;
    this.stride = Math.ceil(this.mean.length / 512) * 64;
    this.#capacity = Math.max(64, capacity);
    // Shared, so that a helper thread can count part of a search's pass (`kernel/helper.ts`).
    this.#kernel = createDotKernel(this.#capacity * this.stride + this.stride + 64, {
      shared: true,
    });
    this.#prefix = this.stride >= 4 * PREFIX_BYTES
      ? createDotKernel((this.#capacity + 1) * PREFIX_BYTES + 64)
      : undefined;
    this.#second = this.#prefix
      ? createDotKernel((this.#capacity + 1) * PREFIX_BYTES + 64)
      : undefined;
  }

  get count(): number {
    return this.#count;
  }

  get byteLength(): number {
    return this.#kernel.memory.buffer.byteLength + (this.#prefix?.memory.buffer.byteLength ?? 0) +
      (this.#second?.memory.buffer.byteLength ?? 0);
  }

  /** The code of `vector` (normalized) into slot `slot`. */
  set(slot: number, vector: Float32Array): void {
    this.#reserve(slot + 1);
    this.#encode(vector, slot * this.stride);
    this.#copyPrefixes(slot, 1);
    this.#copySeconds(slot, 1);
    this.#count = Math.max(this.#count, slot + 1);
  }

  /** Copies stored codes (a checkpoint's, `stride` bytes each) into slots from `slot` on. */
  setCodes(slot: number, codes: Uint8Array): void {
    const rows = codes.length / this.stride;
    if (!Number.isInteger(rows)) throw new RangeError("bit codes: codes of bad size");
    this.#reserve(slot + rows);
    new Uint8Array(this.#kernel.memory.buffer, slot * this.stride, codes.length).set(codes);
    this.#copyPrefixes(slot, rows);
    this.#copySeconds(slot, rows);
    this.#count = Math.max(this.#count, slot + rows);
  }

  /**
   * Room for `rows` codes from slot 0 and a view of them, to read a
   * checkpoint's straight into; and room for a search's scratch over them
   * and the window `codesLater` reads through: nothing may grow this memory
   * while a read into it is under way.
   */
  loadInto(rows: number): Uint8Array {
    this.#reserve(rows);
    this.#ensureBytes(this.#windowAt() + PENDING_WINDOW_BYTES);
    return new Uint8Array(this.#kernel.memory.buffer, 0, rows * this.stride);
  }

  /**
   * After `loadInto(rows)`, when a load reads the codes in after the index
   * serves: codes `0 .. rows - 1` are held now, and until the loader sets
   * `pending.done` a search streams them from the file through a small
   * window instead (a copy from the page cache costs far less here than the
   * first touch of fresh memory, which the loader pays on its own thread).
   * The prefixes must have been read (`loadPrefixesInto`), not copied.
   */
  codesLater(rows: number, pending: PendingRows): void {
    this.#pending = pending;
    this.#count = Math.max(this.#count, rows);
    this.#secondReady = !this.#second;
  }

  /**
   * After `codesLater`, once the loader has the codes in (`pending.done`):
   * derives the rows' middle slices, a slice of rows per turn of the event
   * loop (searches meanwhile skip the middle pass), then uses them.
   */
  async derivePending(): Promise<void> {
    if (!this.#second || this.#secondReady) return;
    const rows = this.#count;
    for (let from = 0; from < rows; from += SECOND_ROWS_PER_TURN) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      this.#copySeconds(from, Math.min(SECOND_ROWS_PER_TURN, rows - from));
    }
    this.#secondReady = true;
  }

  /** Where `codesLater`'s window sits: past the codes' and a search's scratch. */
  #windowAt(): number {
    return Math.ceil((this.#capacity * this.stride + this.stride + this.#capacity * 8 + 64) / 64) *
      64;
  }

  /**
   * Codes `0 .. rows - 1`, read in through `loadInto`, are held; their
   * prefixes are packed now unless `loadPrefixesInto` read them too.
   */
  adopt(rows: number, prefixesRead = false): void {
    if (!prefixesRead) this.#copyPrefixes(0, rows);
    if (!this.#pending) this.#copySeconds(0, rows);
    this.#count = Math.max(this.#count, rows);
  }

  /**
   * After `loadPrefixesInto`, when a load reads the prefixes in after the
   * index serves: until the returned function is called, searches make one
   * pass over the full codes instead (the same candidates or better).
   */
  prefixesLater(): () => void {
    this.#prefixesReady = false;
    return () => (this.#prefixesReady = true);
  }

  /** Whether the codes' prefixes are kept apart (long codes only): a checkpoint stores them. */
  get hasPrefixes(): boolean {
    return this.#prefix !== undefined;
  }

  /** The packed prefixes of codes `from .. to - 1` (a fresh view; `PREFIX_BYTES` a row). */
  prefixes(from: number, to: number): Uint8Array {
    return new Uint8Array(
      this.#prefix!.memory.buffer,
      from * PREFIX_BYTES,
      (to - from) * PREFIX_BYTES,
    );
  }

  /** After `loadInto(rows)`: a view of the packed prefixes of rows `0 .. rows - 1`, to read into. */
  loadPrefixesInto(rows: number): Uint8Array {
    this.#reserve(rows);
    return this.prefixes(0, rows);
  }

  /** Codes `from .. to - 1` as they sit in memory (a fresh view: valid until the next write). */
  codes(from: number, to: number): Uint8Array {
    if (this.#pending && !this.#pending.done) {
      throw new Error("bit codes: read while a load still reads them in");
    }
    return new Uint8Array(
      this.#kernel.memory.buffer,
      from * this.stride,
      (to - from) * this.stride,
    );
  }

  /**
   * The slots below `count` nearest `query` by Hamming distance: at least
   * `wanted` of them (all ties at the cut are kept), in slot order. A fresh
   * view, valid until the next call. `meanwhile` runs once on this thread
   * while a helper thread starts on the full pass (`hammingPass`), or first.
   */
  nearest(
    query: Float32Array,
    count: number,
    wanted: number,
    meanwhile?: () => void,
  ): Uint32Array {
    const queryAt = this.#capacity * this.stride;
    const outAt = queryAt + this.stride;
    const picksAt = outAt + count * 4;
    const countsAt = picksAt + count * 4;
    this.#ensureBytes(countsAt + this.#histogramBytes());
    this.#encode(query, queryAt);
    const kernel = this.#kernel;
    const picks = new Uint32Array(kernel.memory.buffer, picksAt, count);
    const widened = wanted * PREFIX_WIDENING;
    if (this.#pending?.done) this.#pending = undefined;
    const pending = this.#pending;
    if (
      pending || !this.#prefix || !this.#prefixesReady ||
      widened * PREFIX_MIN_ROWS_PER_KEPT > count
    ) {
      if (pending) {
        meanwhile?.();
        this.#streamHamming(pending, count, queryAt, outAt);
      } else hammingPass(kernel, 0, this.stride, count, queryAt, outAt, meanwhile);
      const cut = this.#cut(kernel, outAt, count, wanted, countsAt);
      return picks.subarray(0, kernel.atMost(outAt, count, cut, picksAt));
    }
    meanwhile?.();
    const first = this.#firstPass(queryAt, count, widened);
    picks.set(first.picks);
    let kept = first.picks.length;
    if (this.#secondReady) {
      kept = this.#secondPass(queryAt, first.distances, picks, kept, wanted * SECOND_WIDENING);
    }
    kernel.hammingGather(0, this.stride, picksAt, kept, queryAt, outAt);
    const distances = new Int32Array(kernel.memory.buffer, outAt, kept);
    const cut = this.#cut(kernel, outAt, kept, wanted, countsAt);
    let picked = 0;
    for (let i = 0; i < kept; i++) if (distances[i]! <= cut) picks[picked++] = picks[i]!;
    return picks.subarray(0, picked);
  }

  /** The full pass over codes still in the file: a window's worth read, then counted. */
  #streamHamming(pending: PendingRows, count: number, queryAt: number, outAt: number): void {
    const windowAt = this.#windowAt();
    const windowRows = Math.max(1, Math.floor(PENDING_WINDOW_BYTES / this.stride));
    const memory = this.#kernel.memory;
    for (let from = 0; from < count; from += windowRows) {
      const rows = Math.min(windowRows, count - from);
      pending.read(from * this.stride, new Uint8Array(memory.buffer, windowAt, rows * this.stride));
      this.#kernel.hamming(windowAt, this.stride, rows, queryAt, outAt + from * 4);
    }
  }

  /**
   * The first pass: the distances of the first `count` prefixes to the
   * prefix of the query code at `queryAt`, and the rows at least `wanted` of
   * which (ties kept) are nearest, ascending. Fresh views into `#prefix`.
   */
  #firstPass(
    queryAt: number,
    count: number,
    wanted: number,
  ): { distances: Int32Array; picks: Uint32Array } {
    const prefix = this.#prefix!;
    const { queryAt: prefixQueryAt, firstAt: outAt, secondAt: picksAt, countsAt } = this
      .#sliceScratch(prefix, count);
    new Uint8Array(prefix.memory.buffer, prefixQueryAt, PREFIX_BYTES)
      .set(new Uint8Array(this.#kernel.memory.buffer, queryAt, PREFIX_BYTES));
    prefix.hamming(0, PREFIX_BYTES, count, prefixQueryAt, outAt);
    const cut = this.#cut(prefix, outAt, count, wanted, countsAt);
    const kept = prefix.atMost(outAt, count, cut, picksAt);
    return {
      distances: new Int32Array(prefix.memory.buffer, outAt, count),
      picks: new Uint32Array(prefix.memory.buffer, picksAt, kept),
    };
  }

  /**
   * The middle pass: of the `kept` picks, those whose first 512 bits are
   * nearest the query's (at least `wanted`, ties kept), still in slot order,
   * moved to the front of `picks`; returns how many.
   */
  #secondPass(
    queryAt: number,
    first: Int32Array,
    picks: Uint32Array,
    kept: number,
    wanted: number,
  ): number {
    if (kept <= wanted) return kept;
    const second = this.#second!;
    const { queryAt: secondQueryAt, firstAt: slotsAt, secondAt: outAt, countsAt } = this
      .#sliceScratch(second, kept);
    const buffer = second.memory.buffer;
    new Uint8Array(buffer, secondQueryAt, PREFIX_BYTES).set(
      new Uint8Array(this.#kernel.memory.buffer, queryAt + PREFIX_BYTES, PREFIX_BYTES),
    );
    new Uint32Array(buffer, slotsAt, kept).set(picks.subarray(0, kept));
    second.hammingGather(0, PREFIX_BYTES, slotsAt, kept, secondQueryAt, outAt);
    const distances = new Int32Array(buffer, outAt, kept);
    for (let i = 0; i < kept; i++) distances[i] = distances[i]! + first[picks[i]!]!;
    const cut = this.#cut(second, outAt, kept, wanted, countsAt);
    let picked = 0;
    for (let i = 0; i < kept; i++) if (distances[i]! <= cut) picks[picked++] = picks[i]!;
    return picked;
  }

  /**
   * Scratch in a kernel of packed slices (`#prefix`, `#second`), past its
   * slices: the query's slice, two arrays of `count` u32 and a histogram.
   */
  #sliceScratch(kernel: DotKernel, count: number) {
    const queryAt = this.#capacity * PREFIX_BYTES;
    const firstAt = queryAt + PREFIX_BYTES;
    const secondAt = firstAt + count * 4;
    const countsAt = secondAt + count * 4;
    const missing = countsAt + this.#histogramBytes() - kernel.memory.buffer.byteLength;
    if (missing > 0) kernel.memory.grow(Math.ceil(missing / PAGE_BYTES));
    return { queryAt, firstAt, secondAt, countsAt };
  }

  /** Room for a histogram of distances: one u32 count per possible distance. */
  #histogramBytes(): number {
    return (this.stride * 8 + 1) * 4;
  }

  /**
   * The smallest distance at or under which at least `wanted` of the `count`
   * distances at `valuesAt` in `kernel`'s memory fall. Distances are small
   * integers: a histogram (at `countsAt`) finds the cut without sorting.
   */
  #cut(kernel: DotKernel, valuesAt: number, count: number, wanted: number, countsAt: number) {
    const bins = this.stride * 8 + 1;
    const counts = new Uint32Array(kernel.memory.buffer, countsAt, bins).fill(0);
    kernel.histogram(valuesAt, count, countsAt);
    let cut = 0;
    for (let seen = 0; cut < bins; cut++) {
      seen += counts[cut]!;
      if (seen >= wanted) break;
    }
    return cut;
  }

  /** Copies the prefixes of the `rows` codes from `slot` on into the packed prefixes. */
  #copyPrefixes(slot: number, rows: number): void {
    const prefix = this.#prefix;
    if (!prefix) return;
    const codes = new Uint8Array(this.#kernel.memory.buffer);
    const prefixes = new Uint8Array(prefix.memory.buffer);
    for (let row = slot; row < slot + rows; row++) {
      prefixes.set(
        codes.subarray(row * this.stride, row * this.stride + PREFIX_BYTES),
        row * PREFIX_BYTES,
      );
    }
  }

  /** Copies the middle slices of the `rows` codes from `slot` on into `#second`. */
  #copySeconds(slot: number, rows: number): void {
    const second = this.#second;
    if (!second) return;
    const words = PREFIX_BYTES / 4;
    const codeWords = this.stride / 4;
    const codes = new Uint32Array(this.#kernel.memory.buffer, 0, (slot + rows) * codeWords);
    const slices = new Uint32Array(second.memory.buffer, 0, (slot + rows) * words);
    for (let row = slot; row < slot + rows; row++) {
      const from = row * codeWords + words;
      const to = row * words;
      for (let w = 0; w < words; w++) slices[to + w] = codes[from + w]!;
    }
  }

  #encode(vector: Float32Array, at: number): void {
    const bytes = new Uint8Array(this.#kernel.memory.buffer, at, this.stride);
    bytes.fill(0);
    for (let d = 0; d < this.mean.length; d++) {
      if (vector[d]! > this.mean[d]!) bytes[d >> 3] = bytes[d >> 3]! | (1 << (d & 7));
    }
  }

  #reserve(rows: number): void {
    if (rows <= this.#capacity) return;
    if (this.#pending && !this.#pending.done) {
      throw new Error("bit codes: grown while a load still reads codes into them");
    }
    this.#capacity = Math.max(rows, Math.ceil(this.#capacity * 1.5));
    this.#ensureBytes(this.#capacity * this.stride + this.stride + 64);
    for (const slices of [this.#prefix, this.#second]) {
      const missing = (this.#capacity + 1) * PREFIX_BYTES + 64 -
        (slices?.memory.buffer.byteLength ?? 0);
      if (slices && missing > 0) slices.memory.grow(Math.ceil(missing / PAGE_BYTES));
    }
  }

  #ensureBytes(bytes: number): void {
    const memory = this.#kernel.memory;
    const missing = bytes - memory.buffer.byteLength;
    if (missing > 0) memory.grow(Math.ceil(missing / PAGE_BYTES));
  }
}

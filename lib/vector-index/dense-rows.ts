import { createDotKernel, type DotKernel, PAGE_BYTES } from "./kernel/kernel.ts";

/**
 * Rows a load has not read in yet (`DenseRows.adoptLater`): `read` copies
 * bytes from the rows' section (from byte `at`) into place, until `done`.
 */
export type PendingRows = { done: boolean; read(at: number, into: Uint8Array): void };

/** Rows scored at a time from a file while a load reads them in (6 MB of scratch at 1,536-d). */
const PENDING_SCRATCH_ROWS = 4096;

/** The int16 query's range: 15 bits, so 1,536 products of ±127 × ±16383 fit an int32 (with room). */
const QUERY_MAX = 16383;

/**
 * A namespace's dense vectors, row by row: each L2-normalized vector
 * quantized to int8 with a scale of its own (`max |v| / 127`), in one
 * contiguous block of the dot kernel's memory, rows `stride` bytes apart
 * (the width rounded up to 32, zero-padded). A 1,536-d chunk costs 1,540
 * bytes instead of 8 per dimension as postings. A query is quantized to
 * int16 (finer than the rows, so the rows' rounding is the only error that
 * matters: measured recall@10 against exact float search is in
 * BENCHMARKS.md). Slots are the namespace's; a slot's row never changes once
 * written, which is what lets a checkpoint read rows while writes go on.
 *
 * @example
 * const rows = new DenseRows(1536);
 * rows.set(0, normalizedVector);
 * rows.scoreRange(query, 0, 1); // approximate cosine of row 0
 */
export class DenseRows {
  readonly dimensions: number;
  readonly stride: number;
  readonly #kernel: DotKernel;
  #capacity: number;
  #scales: Float32Array;
  /** Rows written: slots `0 .. count - 1`. */
  #count = 0;
  /** Rows a load is still reading in (`adoptLater`). */
  #pending: PendingRows | undefined;

  constructor(dimensions: number, capacity = 64) {
    this.dimensions = dimensions;
    this.stride = Math.ceil(dimensions / 32) * 32;
    this.#capacity = Math.max(1, capacity);
    this.#kernel = createDotKernel(this.#capacity * this.stride + this.stride * 2 + 64);
    this.#scales = new Float32Array(this.#capacity);
  }

  get count(): number {
    return this.#count;
  }

  /** Bytes held: the rows' memory and their scales. */
  get byteLength(): number {
    return this.#kernel.memory.buffer.byteLength + this.#scales.byteLength;
  }

  /** Quantizes a normalized vector into slot `slot` (at or past every slot written so far). */
  set(slot: number, vector: Float32Array): void {
    this.#reserve(slot + 1);
    let max = 0;
    for (let d = 0; d < vector.length; d++) max = Math.max(max, Math.abs(vector[d]!));
    const scale = max / 127 || 1;
    const row = new Int8Array(this.#kernel.memory.buffer, slot * this.stride, this.stride);
    for (let d = 0; d < vector.length; d++) row[d] = Math.round(vector[d]! / scale);
    this.#scales[slot] = scale;
    this.#count = Math.max(this.#count, slot + 1);
  }

  /** Copies rows already quantized (a checkpoint's bytes, `stride` apart) into slots from `slot` on. */
  setCodes(slot: number, codes: Int8Array, scales: Float32Array): void {
    const rows = scales.length;
    if (codes.length !== rows * this.stride) throw new RangeError("dense rows: codes of bad size");
    this.#reserve(slot + rows);
    new Int8Array(this.#kernel.memory.buffer, slot * this.stride, codes.length).set(codes);
    this.#scales.set(scales, slot);
    this.#count = Math.max(this.#count, slot + rows);
  }

  /**
   * Room for `rows` rows from slot 0 and views of their codes and scales, for
   * a checkpoint's arrays to be read straight into (no copy); `adopt` then
   * makes them rows. Nothing else may grow this memory in between.
   */
  loadInto(rows: number): { codes: Int8Array; scales: Float32Array } {
    this.#reserve(rows);
    // And room to score every row, and to score rows read from a file (`#scorePending`): nothing
    // may grow this memory while a read into it is under way.
    this.#ensureBytes(this.#pendingScratchAt() + PENDING_SCRATCH_ROWS * this.stride);
    return {
      codes: new Int8Array(this.#kernel.memory.buffer, 0, rows * this.stride),
      scales: this.#scales.subarray(0, rows),
    };
  }

  /** Rows `0 .. rows - 1`, read in through `loadInto`, are held. */
  adopt(rows: number): void {
    this.#count = Math.max(this.#count, rows);
  }

  /**
   * After `loadInto(rows)`, with the rows' scales read but their codes not
   * yet: rows `0 .. rows - 1` are held now, and until the loader, having
   * read them all into the view `loadInto` gave, sets `source.done`,
   * `scoreSlots` scores rows `source` reads into a scratch block, and the
   * rest (`codes`, `vector`, `scoreRange`) reads them into place. `loadInto`
   * reserved room for scoring every row: this memory must not grow while
   * the loader's read into it is under way (writes wait for the load).
   */
  adoptLater(rows: number, source: PendingRows): void {
    this.#pending = source;
    this.#count = Math.max(this.#count, rows);
  }

  /** Rows `from .. to - 1` as they sit in memory (a fresh view: valid until the next write). */
  codes(from: number, to: number): Int8Array {
    this.#present(from, to);
    return new Int8Array(this.#kernel.memory.buffer, from * this.stride, (to - from) * this.stride);
  }

  /** Rows `from .. to - 1` read into place if a load has not brought them in yet. */
  #present(from: number, to: number): void {
    const pending = this.#pending;
    if (!pending) return;
    if (pending.done) {
      this.#pending = undefined;
      return;
    }
    const bytes = new Uint8Array(
      this.#kernel.memory.buffer,
      from * this.stride,
      (to - from) * this.stride,
    );
    pending.read(from * this.stride, bytes);
  }

  /** Where `#scorePending` reads rows to: past the scratch space `#prepare` uses for every row. */
  #pendingScratchAt(): number {
    const at = this.#capacity * this.stride + this.stride * 2 + 64 + this.#capacity * 8;
    return Math.ceil(at / 64) * 64;
  }

  /**
   * `scoreSlots` while a load still reads the rows in: the rows at `slots`
   * (one read per run of consecutive slots) go to a scratch block, reused
   * from query to query, and are scored there. Reading them into their final
   * places would touch fresh memory, which costs more here than the read;
   * the loader touches those on its own thread.
   */
  #scorePending(
    pending: PendingRows,
    query: Float32Array,
    slots: Uint32Array,
    count: number,
  ): Float32Array {
    const { queryAt, outAt, queryScale } = this.#prepare(query, count);
    const scratchAt = this.#pendingScratchAt();
    const stride = this.stride;
    const memory = this.#kernel.memory;
    for (let from = 0; from < count; from += PENDING_SCRATCH_ROWS) {
      const to = Math.min(count, from + PENDING_SCRATCH_ROWS);
      for (let i = from; i < to;) {
        let end = i + 1;
        while (end < to && slots[end] === slots[end - 1]! + 1) end++;
        const into = new Uint8Array(
          memory.buffer,
          scratchAt + (i - from) * stride,
          (end - i) * stride,
        );
        pending.read(slots[i]! * stride, into);
        i = end;
      }
      this.#kernel.scan(scratchAt, stride, to - from, queryAt, outAt + from * 4);
    }
    return this.#rescale(outAt, count, queryScale, (i) => slots[i]!);
  }

  scale(slot: number): number {
    return this.#scales[slot]!;
  }

  /** The row at `slot` dequantized (k-means accumulates these). */
  vector(slot: number, into: Float32Array = new Float32Array(this.dimensions)): Float32Array {
    this.#present(slot, slot + 1);
    const row = new Int8Array(this.#kernel.memory.buffer, slot * this.stride, this.dimensions);
    const scale = this.#scales[slot]!;
    for (let d = 0; d < this.dimensions; d++) into[d] = row[d]! * scale;
    return into;
  }

  /** Approximate cosines of `query` (normalized) with rows `from .. to - 1`. */
  scoreRange(query: Float32Array, from: number, to: number): Float32Array {
    const count = Math.max(0, to - from);
    this.#present(from, from + count);
    const { queryAt, outAt, queryScale } = this.#prepare(query, count);
    this.#kernel.scan(from * this.stride, this.stride, count, queryAt, outAt);
    return this.#rescale(outAt, count, queryScale, (i) => from + i);
  }

  /** Approximate cosines of `query` with the rows at `slots[0 .. count - 1]`. */
  scoreSlots(query: Float32Array, slots: Uint32Array, count: number): Float32Array {
    const pending = this.#pending;
    if (pending && !pending.done) return this.#scorePending(pending, query, slots, count);
    this.#pending = undefined;
    const { queryAt, outAt, slotsAt, queryScale } = this.#prepare(query, count);
    new Uint32Array(this.#kernel.memory.buffer, slotsAt, count).set(slots.subarray(0, count));
    this.#kernel.gather(0, this.stride, slotsAt, count, queryAt, outAt);
    return this.#rescale(outAt, count, queryScale, (i) => slots[i]!);
  }

  /** Query and results go in scratch space past the rows; returns where. */
  #prepare(query: Float32Array, count: number) {
    if (query.length !== this.dimensions) {
      throw new RangeError(`dense rows: a ${query.length}-d query for ${this.dimensions}-d rows`);
    }
    const queryAt = this.#capacity * this.stride;
    const slotsAt = queryAt + this.stride * 2;
    const outAt = slotsAt + count * 4;
    this.#ensureBytes(outAt + count * 4);
    let max = 0;
    for (let d = 0; d < query.length; d++) max = Math.max(max, Math.abs(query[d]!));
    const queryScale = max > 0 ? QUERY_MAX / max : 1;
    const values = new Int16Array(this.#kernel.memory.buffer, queryAt, this.stride);
    values.fill(0);
    for (let d = 0; d < query.length; d++) values[d] = Math.round(query[d]! * queryScale);
    return { queryAt, outAt, slotsAt, queryScale };
  }

  #rescale(outAt: number, count: number, queryScale: number, slotOf: (i: number) => number) {
    const dots = new Int32Array(this.#kernel.memory.buffer, outAt, count);
    const scores = new Float32Array(count);
    for (let i = 0; i < count; i++) scores[i] = (dots[i]! * this.#scales[slotOf(i)]!) / queryScale;
    return scores;
  }

  /** Room for `rows` rows: capacity grows by half again (at 1M rows, doubling wastes 1.5 GB). */
  #reserve(rows: number): void {
    if (rows <= this.#capacity) return;
    if (this.#pending && !this.#pending.done) {
      throw new Error("dense rows: grown while a load still reads rows into them");
    }
    const capacity = Math.max(rows, Math.ceil(this.#capacity * 1.5), 64);
    this.#ensureBytes(capacity * this.stride + this.stride * 2 + 64);
    const scales = new Float32Array(capacity);
    scales.set(this.#scales);
    this.#scales = scales;
    this.#capacity = capacity;
  }

  #ensureBytes(bytes: number): void {
    const memory = this.#kernel.memory;
    const missing = bytes - memory.buffer.byteLength;
    if (missing > 0) memory.grow(Math.ceil(missing / PAGE_BYTES));
  }
}

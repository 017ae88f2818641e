import { IndexDamagedError } from "./errors.ts";
import { DenseRows } from "./dense-rows.ts";
import { fastCrc32 } from "./kernel/crc.ts";
import type { ResidualRows } from "./dense-vectors.ts";

/**
 * A checkpoint file read by position, synchronously (a search's refinement
 * and a hit's text are read while it runs): Deno's file, or the bytes
 * themselves in memory. `batch` holds one handle open for many reads.
 */
export type RandomAccess = {
  /** The file, as errors name it. */
  readonly file: string;
  readSync(at: number, into: Uint8Array): void;
  batch<T>(work: () => T): T;
};

/** Bytes in memory as a `RandomAccess` (tests, and checkpoints read whole). */
export function bytesAccess(bytes: Uint8Array, file = "memory"): RandomAccess {
  return {
    file,
    readSync(at, into) {
      if (at + into.length > bytes.length) throw new RangeError("read past the end");
      into.set(bytes.subarray(at, at + into.length));
    },
    batch: (work) => work(),
  };
}

/** On disk a stored row is its int8 codes (`stride` bytes), its scale (f32), a CRC-32 of both. */
export const storedRowBytes = (stride: number) => stride + 8;

/** The query as the dot kernel quantizes it (int16, 15 bits), so stored rows score alike. */
const QUERY_MAX = 16383;

/**
 * Residual rows of a checkpoint, left in its file and read by position when
 * a search refines them (about a hundred per search; at 1M chunks they are
 * 1.5 GB a load need not read). Each row carries its own CRC, checked on
 * every read: damage is reported before a damaged row is used. Rows added
 * after the load (slots from `base` on) are kept in memory as usual.
 */
export class StoredRows implements ResidualRows {
  readonly dimensions: number;
  readonly stride: number;
  readonly #base: number;
  readonly #at: number;
  readonly #file: RandomAccess;
  readonly #added: DenseRows;
  #last: { slot: number; codes: Int8Array; scale: number } | undefined;

  /** `base` rows stored from byte `at` of `file`, each `storedRowBytes(stride)` long. */
  constructor(dimensions: number, base: number, at: number, file: RandomAccess) {
    this.dimensions = dimensions;
    this.#added = new DenseRows(dimensions);
    this.stride = this.#added.stride;
    this.#base = base;
    this.#at = at;
    this.#file = file;
  }

  get count(): number {
    return this.#base + this.#added.count;
  }

  get byteLength(): number {
    return this.#added.byteLength;
  }

  set(slot: number, vector: Float32Array): void {
    this.#added.set(this.#addedSlot(slot), vector);
  }

  setCodes(slot: number, codes: Int8Array, scales: Float32Array): void {
    this.#added.setCodes(this.#addedSlot(slot), codes, scales);
  }

  codes(from: number, to: number): Int8Array {
    if (from >= this.#base) return this.#added.codes(from - this.#base, to - this.#base);
    const out = new Int8Array((to - from) * this.stride);
    this.#file.batch(() => {
      for (let slot = from; slot < to; slot++) {
        out.set(this.#row(slot).codes, (slot - from) * this.stride);
      }
    });
    return out;
  }

  scale(slot: number): number {
    return slot >= this.#base ? this.#added.scale(slot - this.#base) : this.#row(slot).scale;
  }

  /** The same scores as `DenseRows.scoreSlots`: the kernel's integer dot products, done here. */
  scoreSlots(query: Float32Array, slots: Uint32Array, count: number): Float32Array {
    const scores = new Float32Array(count);
    const added: number[] = [];
    let max = 0;
    for (let d = 0; d < query.length; d++) max = Math.max(max, Math.abs(query[d]!));
    const queryScale = max > 0 ? QUERY_MAX / max : 1;
    const quantized = Int32Array.from(query, (value) => Math.round(value * queryScale));
    this.#file.batch(() => {
      for (let i = 0; i < count; i++) {
        const slot = slots[i]!;
        if (slot >= this.#base) {
          added.push(i);
          continue;
        }
        const { codes, scale } = this.#row(slot);
        let dot = 0;
        for (let d = 0; d < quantized.length; d++) dot += codes[d]! * quantized[d]!;
        scores[i] = (dot * scale) / queryScale;
      }
    });
    if (added.length > 0) {
      const local = Uint32Array.from(added, (i) => slots[i]! - this.#base);
      const addedScores = this.#added.scoreSlots(query, local, local.length);
      added.forEach((i, j) => (scores[i] = addedScores[j]!));
    }
    return scores;
  }

  batch<T>(work: () => T): T {
    return this.#file.batch(work);
  }

  #addedSlot(slot: number): number {
    if (slot < this.#base) throw new RangeError("stored rows: a stored row is never rewritten");
    return slot - this.#base;
  }

  /** The stored row at `slot`, its CRC checked (the last one is kept: codes and scale come apart). */
  #row(slot: number): { codes: Int8Array; scale: number } {
    if (this.#last?.slot === slot) return this.#last;
    const size = storedRowBytes(this.stride);
    const bytes = new Uint8Array(size);
    const at = this.#at + slot * size;
    this.#file.readSync(at, bytes);
    const view = new DataView(bytes.buffer);
    if (fastCrc32(bytes.subarray(0, size - 4)) !== view.getUint32(size - 4, true)) {
      throw new IndexDamagedError({
        file: this.#file.file,
        offset: at,
        why: `the stored residual row of slot ${slot} fails its checksum`,
      });
    }
    const row = {
      slot,
      codes: new Int8Array(bytes.buffer, 0, this.stride),
      scale: view.getFloat32(this.stride, true),
    };
    this.#last = row;
    return row;
  }
}

/**
 * A checkpoint's texts left in its file: offsets and a CRC per text in
 * memory, the bytes read when a search returns the text (the final k) and
 * checked then.
 */
export class StoredTexts {
  readonly count: number;
  readonly #at: number;
  readonly #offsets: Float64Array;
  readonly #crcs: Uint32Array;
  readonly #file: RandomAccess;

  /** `offsets`: `count + 1` of them, from byte `at` of `file`. */
  constructor(at: number, offsets: Float64Array, crcs: Uint32Array, file: RandomAccess) {
    this.count = crcs.length;
    this.#at = at;
    this.#offsets = offsets;
    this.#crcs = crcs;
    this.#file = file;
  }

  bytes(slot: number): Uint8Array {
    const from = this.#offsets[slot]!;
    const bytes = new Uint8Array(this.#offsets[slot + 1]! - from);
    this.#file.readSync(this.#at + from, bytes);
    if (fastCrc32(bytes) !== this.#crcs[slot]) {
      throw new IndexDamagedError({
        file: this.#file.file,
        offset: this.#at + from,
        why: `the stored text of slot ${slot} fails its checksum`,
      });
    }
    return bytes;
  }

  batch<T>(work: () => T): T {
    return this.#file.batch(work);
  }
}

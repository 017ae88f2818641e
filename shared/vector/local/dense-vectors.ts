import { BitCodes, CODE_DIMENSIONS } from "./bit-codes.ts";
import { DenseRows } from "./dense-rows.ts";

/**
 * Below this many rows a search scores every int8 row (about 1 ms at
 * 1,536-d); from it on, bit codes pick candidates first. Measured: the
 * two-stage search is 5× faster at 100k rows with the same recall@10.
 */
export const CODES_FROM_ROWS = 4096;
/**
 * The fewest candidates 1,024-bit codes hand to the int8 rescoring, and the
 * share of the rows they hand over at least. Narrower codes tell rows apart
 * less well, so they hand over more: (1,024 / bits)² times as many.
 * Measured on clustered vectors at 50k rows (recall@10 against exact search):
 * 1,024 bits reach 0.997 with 250; 512 bits 0.970 with 250 and 0.987 with
 * 1,000; 256 bits 0.937 with 1,000 and 0.972 with 2,000.
 */
const MIN_CANDIDATES = 250;
const MIN_CANDIDATE_SHARE = 1 / 1000;

/**
 * The dense layout of a namespace: int8 rows (`DenseRows`) and, past a few
 * thousand rows, a bit code per row (`BitCodes`). A search asks the codes for
 * the nearest few hundred rows by Hamming distance and rescores those with
 * the int8 rows, so its cost is one pass over 128 bytes per row plus a few
 * hundred dot products, instead of a dot product with every row.
 */
export class DenseVectors {
  readonly rows: DenseRows;
  #bits: BitCodes | undefined;

  constructor(dimensions: number, capacity = 64) {
    this.rows = new DenseRows(dimensions, capacity);
  }

  get dimensions(): number {
    return this.rows.dimensions;
  }

  get bits(): BitCodes | undefined {
    return this.#bits;
  }

  get byteLength(): number {
    return this.rows.byteLength + (this.#bits?.byteLength ?? 0);
  }

  /** Stores a normalized vector at `slot` (at or past every slot so far). */
  set(slot: number, vector: Float32Array): void {
    this.rows.set(slot, vector);
    if (this.#bits) this.#bits.set(slot, vector);
    else if (this.rows.count >= CODES_FROM_ROWS) this.#startCodes();
  }

  /**
   * Approximate cosines of `query` with the rows the bit codes pick (slot
   * `slots[i]` scores `scores[i]`), or, with `exact` or while there are no
   * codes, with every row below `slotCount` (`slots` undefined: row `i`
   * scores `scores[i]`).
   */
  score(
    query: Float32Array,
    slotCount: number,
    limit: number,
    exact = false,
  ): { slots: Uint32Array | undefined; scores: Float32Array } {
    if (exact || !this.#bits) {
      return { slots: undefined, scores: this.rows.scoreRange(query, 0, slotCount) };
    }
    const coarseness = (CODE_DIMENSIONS / this.#bits.mean.length) ** 2;
    const wanted = Math.max(
      limit * 10,
      Math.ceil(coarseness * Math.max(MIN_CANDIDATES, slotCount * MIN_CANDIDATE_SHARE)),
    );
    if (wanted >= slotCount) {
      return { slots: undefined, scores: this.rows.scoreRange(query, 0, slotCount) };
    }
    const slots = this.#bits.nearest(query, slotCount, wanted).slice();
    return { slots, scores: this.rows.scoreSlots(query, slots, slots.length) };
  }

  /**
   * Empty vectors with room for `capacity` rows, and bit codes around `mean`
   * if given: what a checkpoint's rows are copied into.
   */
  static empty(dimensions: number, capacity: number, mean?: Float32Array): DenseVectors {
    const vectors = new DenseVectors(dimensions, capacity);
    if (mean) vectors.#bits = new BitCodes(mean, capacity);
    return vectors;
  }

  /** The slots in `live` (ascending) copied out, renumbered from 0 (a rebuild drops the dead). */
  compact(live: ArrayLike<number>): DenseVectors {
    const bits = this.#bits;
    const vectors = DenseVectors.empty(this.dimensions, live.length, bits?.mean);
    for (let i = 0; i < live.length; i++) {
      const slot = live[i]!;
      vectors.rows.setCodes(
        i,
        this.rows.codes(slot, slot + 1),
        Float32Array.of(this.rows.scale(slot)),
      );
      if (bits) vectors.#bits!.setCodes(i, bits.codes(slot, slot + 1));
    }
    return vectors;
  }

  /** The mean of (up to 4,096 evenly spread) rows, then a code for every row held. */
  #startCodes(): void {
    const { rows } = this;
    const dimensions = rows.dimensions;
    const mean = new Float64Array(dimensions);
    const step = Math.max(1, Math.floor(rows.count / 4096));
    const vector = new Float32Array(dimensions);
    let sampled = 0;
    for (let slot = 0; slot < rows.count; slot += step, sampled++) {
      rows.vector(slot, vector);
      for (let d = 0; d < dimensions; d++) mean[d] = mean[d]! + vector[d]!;
    }
    const bits = new BitCodes(Float32Array.from(mean, (sum) => sum / sampled), rows.count * 2);
    for (let slot = 0; slot < rows.count; slot++) bits.set(slot, rows.vector(slot, vector));
    this.#bits = bits;
  }
}

import { BitCodes, CODE_DIMENSIONS } from "./bit-codes.ts";
import { DenseRows } from "./dense-rows.ts";
import { SlotTopK } from "./slot-top-k.ts";

/**
 * Below this many rows a search scores every int8 row (under 2 ms at
 * 1,536-d); from it on, bit codes pick candidates first.
 */
export const CODES_FROM_ROWS = 8192;
/**
 * The fewest candidates 1,024-bit codes hand to the int8 rows, and the share
 * of the rows they hand over at least. Candidates are cheap (1.5 KB each to
 * rescore); what they must catch is a query's weakly related neighbours, which
 * differ from the rest in ways a sign bit blurs. Measured through the server
 * on clustered 1,536-d vectors (recall@10 against exact search): at 5k chunks
 * 250 candidates gave 0.81, 1,000 gave 0.93, 2,000 gave 0.965; at 20k 2,000
 * gave 1.0. Narrower codes tell rows apart less well, so they hand over
 * (1,024 / bits)² times as many (on 50k rows, 256 bits needed 8× the
 * candidates of 1,024 bits for the same recall).
 */
const MIN_CANDIDATES = 2000;
const MIN_CANDIDATE_SHARE = 1 / 500;
/**
 * How many of the int8 rows' best are refined with their residuals. int8
 * alone is off by about 2e-4 in cosine; past a query's few truly related
 * chunks, thousands of others sit closer together than that, and int8 alone
 * reached only 0.81 recall@10 at 5k chunks (usearch's int8 HNSW: 0.77).
 */
const REFINE_AT_LEAST = 100;

/**
 * The parts of a `DenseVectors` as they are at one moment: what a checkpoint
 * writes. Rows below the view's slot count never change, and whether there
 * are bit codes is fixed here, so frames written later agree with each other.
 */
export type DenseVectorsView = {
  rows: DenseRows;
  residuals: ResidualRows;
  bits: BitCodes | undefined;
};

/**
 * What the residuals need of a row store: `DenseRows`, or after a load the
 * checkpoint's rows read from its file on demand (`StoredRows`: a search
 * refines only about a hundred rows, so they need not be in memory).
 */
export type ResidualRows =
  & Pick<
    DenseRows,
    "stride" | "count" | "byteLength" | "set" | "setCodes" | "codes" | "scale" | "scoreSlots"
  >
  & {
    /** Many reads of stored rows under one open file (a checkpoint writing them all). */
    batch?<T>(work: () => T): T;
  };

/** A slot and its (refined) cosine with the query. */
export type SlotScore = { slot: number; score: number };

/**
 * The dense layout of a namespace: int8 rows (`DenseRows`), the int8 rows of
 * what the first rows' rounding left out (residuals, so together they hold
 * a vector to about 1e-6), and past a few thousand rows a bit code per row
 * (`BitCodes`). A search asks the codes for the nearest few thousand rows by
 * Hamming distance, scores those with the int8 rows, and refines the best
 * hundred with the residuals: one pass over 128 bytes per row (32 bytes per
 * row past about 750k rows, see `BitCodes`) plus a few thousand dot
 * products, instead of a float dot product with every row.
 * Everything is 3.1 KB a 1,536-d chunk, against 6 KB as float32.
 */
export class DenseVectors {
  readonly rows: DenseRows;
  readonly residuals: ResidualRows;
  #bits: BitCodes | undefined;

  constructor(dimensions: number, capacity = 64, residuals?: ResidualRows) {
    this.rows = new DenseRows(dimensions, capacity);
    this.residuals = residuals ?? new DenseRows(dimensions, capacity);
  }

  get dimensions(): number {
    return this.rows.dimensions;
  }

  get bits(): BitCodes | undefined {
    return this.#bits;
  }

  get byteLength(): number {
    return this.rows.byteLength + this.residuals.byteLength + (this.#bits?.byteLength ?? 0);
  }

  view(): DenseVectorsView {
    return { rows: this.rows, residuals: this.residuals, bits: this.#bits };
  }

  /** Stores a normalized vector at `slot` (at or past every slot so far). */
  set(slot: number, vector: Float32Array): void {
    this.rows.set(slot, vector);
    const residual = this.rows.vector(slot);
    for (let d = 0; d < residual.length; d++) residual[d] = vector[d]! - residual[d]!;
    this.residuals.set(slot, residual);
    if (this.#bits) this.#bits.set(slot, vector);
    else if (this.rows.count >= CODES_FROM_ROWS) this.#startCodes();
  }

  /**
   * The `limit` slots below `slotCount` that `accept` lets through, nearest
   * `query` (normalized) first. Should the bit codes' candidates hold fewer
   * than `limit` accepted slots (a filter few pass), every row is scored.
   * `meanwhile` runs once on this thread, while a helper thread counts the
   * bit codes' pass where it can (see `BitCodes.nearest`). The first `exact`
   * are in exact order; past them, int8's order may swap neighbours.
   */
  search(
    query: Float32Array,
    slotCount: number,
    limit: number,
    accept: (slot: number) => boolean,
    meanwhile?: () => void,
    exact = limit,
  ): SlotScore[] {
    const candidates = this.#candidates(query, slotCount, limit, meanwhile);
    const found = this.#refined(query, candidates, slotCount, limit, accept, exact);
    if (found.length >= limit || !candidates) return found;
    return this.#refined(query, undefined, slotCount, limit, accept, exact);
  }

  /** The rows the bit codes pick, or undefined for every row. */
  #candidates(
    query: Float32Array,
    slotCount: number,
    limit: number,
    meanwhile: (() => void) | undefined,
  ): Uint32Array | undefined {
    if (!this.#bits) {
      meanwhile?.();
      return undefined;
    }
    const coarseness = (CODE_DIMENSIONS / this.#bits.mean.length) ** 2;
    const wanted = Math.max(
      limit * 10,
      Math.ceil(coarseness * Math.max(MIN_CANDIDATES, slotCount * MIN_CANDIDATE_SHARE)),
    );
    if (wanted * 2 >= slotCount) {
      meanwhile?.();
      return undefined;
    }
    return this.#bits.nearest(query, slotCount, wanted, meanwhile).slice();
  }

  /** int8 scores of the candidates, the best accepted ones refined with their residuals. */
  #refined(
    query: Float32Array,
    candidates: Uint32Array | undefined,
    slotCount: number,
    limit: number,
    accept: (slot: number) => boolean,
    exact: number,
  ): SlotScore[] {
    const scores = candidates
      ? this.rows.scoreSlots(query, candidates, candidates.length)
      : this.rows.scoreRange(query, 0, slotCount);
    // Ties go to the smaller slot, as they do after refining.
    // The rows refined: four times those whose order must be exact, and every one returned.
    const best = new SlotTopK(Math.max(exact * 4, REFINE_AT_LEAST, limit));
    for (let i = 0; i < scores.length; i++) {
      const score = scores[i]!;
      if (score < best.floor) continue;
      const slot = candidates ? candidates[i]! : i;
      if (accept(slot)) best.offer(slot, score);
    }
    const kept = best.sorted();
    const slots = new Uint32Array(kept.slots);
    const corrections = this.residuals.scoreSlots(query, slots, slots.length);
    const refined: SlotScore[] = Array.from(
      slots,
      (slot, i) => ({ slot, score: kept.scores[i]! + corrections[i]! }),
    );
    return refined.sort((a, b) => b.score - a.score || a.slot - b.slot).slice(0, limit);
  }

  /**
   * Empty vectors with room for `capacity` rows, and bit codes around `mean`
   * if given: what a checkpoint's rows are copied into.
   */
  static empty(
    dimensions: number,
    capacity: number,
    mean?: Float32Array,
    residuals?: ResidualRows,
  ): DenseVectors {
    const vectors = new DenseVectors(dimensions, capacity, residuals);
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
      vectors.residuals.setCodes(
        i,
        this.residuals.codes(slot, slot + 1),
        Float32Array.of(this.residuals.scale(slot)),
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

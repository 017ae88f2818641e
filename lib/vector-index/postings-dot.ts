import type { Postings } from "./postings.ts";
import { SlotTopK } from "./slot-top-k.ts";

/**
 * At this many query entries per slot of the namespace or more, a query adds
 * into one accumulator per slot and reads them all back (about 1 ns an entry
 * and 2.7 ns a slot); below it, it keeps a list of the slots it touched,
 * whose branch per entry mispredicts about as often as a slot is new (about
 * 6 ns an entry, nothing per untouched slot). ARAGOG's questions over 100k
 * chunks of 100 words bring about 141k entries: 0.41 ms a query read back
 * in full, 0.88 ms with the list (`scripts/bench-query.ts --hashed`).
 */
const FULL_SCAN_ENTRIES_PER_SLOT = 1 / 2;

/**
 * Dot products of a sparse query with the vectors held as postings per
 * dimension (the hashed embedding's layout): term at a time, the query's
 * nonzero dimensions' postings added into accumulators that are reused
 * across queries. Exhaustive, so exact: with no idf, a hashed lexical
 * vector's common words carry as much weight as its rare ones, which leaves
 * MaxScore-style pruning little to skip (on ARAGOG questions over 100k
 * chunks, the dimensions it could set aside held a fifth of the entries).
 * Synchronous, one per namespace.
 */
export class PostingsDot {
  #scores = new Float64Array(0);
  #touched = new Uint32Array(0);
  /** 1 for a slot in `#touched`: a weight can be negative, so a score of 0 says nothing. */
  #seen = new Uint8Array(0);
  /** `#scores` may hold a query's sums: one ended by a throw (`accept` is the caller's). */
  #dirty = false;

  /**
   * The `limit` best slots below `slotCount` that `accept` lets through,
   * best first (ties to the slot `before` puts first). Slots sharing no dimension with the query
   * score 0: they are offered only when too few score above it.
   */
  search(
    dims: readonly (Postings<Float32Array> | undefined)[],
    query: Float32Array,
    slotCount: number,
    limit: number,
    accept: (slot: number) => boolean,
    before: (a: number, b: number) => boolean,
  ): { slots: Int32Array; scores: Float64Array } {
    this.#reserve(slotCount);
    if (this.#dirty) {
      this.#scores.fill(0);
      this.#dirty = false;
    }
    let entries = 0;
    for (let dim = 0; dim < query.length; dim++) {
      if (query[dim] !== 0) entries += dims[dim]?.length ?? 0;
    }
    const top = new SlotTopK(limit, before);
    if (entries >= slotCount * FULL_SCAN_ENTRIES_PER_SLOT) {
      this.#fullScan(dims, query, slotCount, accept, top);
    } else this.#touchedOnly(dims, query, slotCount, accept, top);
    return top.sorted();
  }

  /** Every slot's accumulator, read back in full: no per-entry bookkeeping. */
  #fullScan(
    dims: readonly (Postings<Float32Array> | undefined)[],
    query: Float32Array,
    slotCount: number,
    accept: (slot: number) => boolean,
    top: SlotTopK,
  ): void {
    const scores = this.#scores;
    // Cleared after the query, not in a `finally` (which made the loops 30 % slower):
    // a query that throws on the way leaves the flag up for the next to clear.
    this.#dirty = true;
    for (let dim = 0; dim < query.length; dim++) {
      const weight = query[dim]!;
      const posting = dims[dim];
      if (weight === 0 || !posting) continue;
      addInto(scores, posting.slots, posting.values, posting.length, weight);
    }
    const floor = offerNonZero(scores, slotCount, top, accept);
    if (top.size < top.limit || floor <= 0) offerZeros(scores, slotCount, top, accept);
    scores.fill(0, 0, slotCount);
    this.#dirty = false;
  }

  /** Accumulators for the slots the postings touch, and a list of them. */
  #touchedOnly(
    dims: readonly (Postings<Float32Array> | undefined)[],
    query: Float32Array,
    slotCount: number,
    accept: (slot: number) => boolean,
    top: SlotTopK,
  ): void {
    const scores = this.#scores;
    const touched = this.#touched;
    const seen = this.#seen;
    let count = 0;
    try {
      for (let dim = 0; dim < query.length; dim++) {
        const weight = query[dim]!;
        const posting = dims[dim];
        if (weight === 0 || !posting) continue;
        const { slots, values, length } = posting;
        for (let i = 0; i < length; i++) {
          const slot = slots[i]!;
          if (seen[slot] === 0) {
            seen[slot] = 1;
            touched[count++] = slot;
          }
          scores[slot] = scores[slot]! + weight * values[i]!;
        }
      }
      for (let i = 0; i < count; i++) {
        const slot = touched[i]!;
        if (scores[slot]! >= top.floor && accept(slot)) top.offer(slot, scores[slot]!);
      }
      if (top.size === top.limit && top.floor > 0) return;
      for (let slot = 0; slot < slotCount; slot++) {
        if (seen[slot] === 0 && 0 >= top.floor && accept(slot)) top.offer(slot, 0);
      }
    } finally {
      for (let i = 0; i < count; i++) {
        scores[touched[i]!] = 0;
        seen[touched[i]!] = 0;
      }
    }
  }

  #reserve(slotCount: number): void {
    if (slotCount <= this.#scores.length) return;
    const capacity = Math.max(slotCount, Math.ceil(this.#scores.length * 1.5), 64);
    this.#scores = new Float64Array(capacity);
    this.#dirty = false;
    this.#touched = new Uint32Array(capacity);
    this.#seen = new Uint8Array(capacity);
  }
}

/** `scores[slot] += weight * value` over one posting's entries. */
function addInto(
  scores: Float64Array,
  slots: Uint32Array,
  values: Float32Array,
  length: number,
  weight: number,
): void {
  for (let i = 0; i < length; i++) {
    const slot = slots[i]!;
    scores[slot] = scores[slot]! + weight * values[i]!;
  }
}

/**
 * Offers `top` every slot below `slotCount` whose score is not 0 (those wait
 * with the untouched slots: the same rank either way); the top's floor after.
 * The floor is compared first: once the top is full that test is nearly
 * always false, a branch the processor predicts, where `score !== 0` is not
 * (the read-back took twice as long the other way round).
 */
function offerNonZero(
  scores: Float64Array,
  slotCount: number,
  top: SlotTopK,
  accept: (slot: number) => boolean,
): number {
  let floor = top.floor;
  for (let slot = 0; slot < slotCount; slot++) {
    const score = scores[slot]!;
    if (score >= floor && score !== 0 && accept(slot)) {
      top.offer(slot, score);
      floor = top.floor;
    }
  }
  return floor;
}

/** Offers `top` the slots below `slotCount` whose score is 0, while 0 can still enter it. */
function offerZeros(
  scores: Float64Array,
  slotCount: number,
  top: SlotTopK,
  accept: (slot: number) => boolean,
): void {
  for (let slot = 0; slot < slotCount && 0 >= top.floor; slot++) {
    if (scores[slot] === 0 && accept(slot)) top.offer(slot, 0);
  }
}

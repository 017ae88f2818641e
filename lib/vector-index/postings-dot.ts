import type { Postings } from "./postings.ts";
import { SlotTopK } from "./slot-top-k.ts";

/**
 * Dot products of a sparse query with the vectors held as postings per
 * dimension (the hashed embedding's layout): accumulators and the list of
 * slots they touched are reused across queries, so a query costs the
 * postings of its nonzero dimensions and not an array of the namespace's
 * size. Synchronous, one per namespace.
 */
export class PostingsDot {
  #scores = new Float64Array(0);
  #touched = new Uint32Array(0);
  /** 1 for a slot in `#touched`: a weight can be negative, so a score of 0 says nothing. */
  #seen = new Uint8Array(0);

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
    const scores = this.#scores;
    const touched = this.#touched;
    const seen = this.#seen;
    let count = 0;
    try {
      for (let dim = 0; dim < query.length; dim++) {
        const weight = query[dim]!;
        const posting = dims[dim];
        if (weight === 0 || !posting) continue;
        const { slots, values } = posting;
        for (let i = 0; i < posting.length; i++) {
          const slot = slots[i]!;
          if (seen[slot] === 0) {
            seen[slot] = 1;
            touched[count++] = slot;
          }
          scores[slot] = scores[slot]! + weight * values[i]!;
        }
      }
      const top = new SlotTopK(limit, before);
      for (let i = 0; i < count; i++) {
        const slot = touched[i]!;
        if (scores[slot]! >= top.floor && accept(slot)) top.offer(slot, scores[slot]!);
      }
      if (top.size === limit && top.floor > 0) return top.sorted();
      for (let slot = 0; slot < slotCount; slot++) {
        if (seen[slot] === 0 && 0 >= top.floor && accept(slot)) top.offer(slot, 0);
      }
      return top.sorted();
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
    this.#touched = new Uint32Array(capacity);
    this.#seen = new Uint8Array(capacity);
  }
}

/**
 * A growable list of (slot, value) pairs in two typed arrays: one posting
 * list of an inverted index. Appending is amortized O(1); nothing is ever
 * removed in place (dead slots are skipped by readers and dropped when the
 * whole index is rebuilt), so a posting never needs shifting.
 */
export class Postings<V extends Float32Array | Uint16Array> {
  slots: Uint32Array;
  values: V;
  length = 0;
  readonly #makeValues: (size: number) => V;

  constructor(
    makeValues: (size: number) => V,
    capacity = 4,
    arrays?: { slots: Uint32Array; values: V },
  ) {
    this.#makeValues = makeValues;
    this.slots = arrays?.slots ?? new Uint32Array(capacity);
    this.values = arrays?.values ?? makeValues(capacity);
  }

  /** A full posting over existing arrays (views into a checkpoint); a push copies them first. */
  static over<V extends Float32Array | Uint16Array>(
    makeValues: (size: number) => V,
    slots: Uint32Array,
    values: V,
  ): Postings<V> {
    // No arrays of its own first: a load makes one of these per term (hundreds of thousands).
    const posting = new Postings(makeValues, 0, { slots, values });
    posting.length = slots.length;
    return posting;
  }

  /** Room for `capacity` entries in all, copied once: for appending many without regrowing. */
  reserve(capacity: number): void {
    if (capacity > this.slots.length) this.#grow(capacity);
  }

  push(slot: number, value: number): void {
    if (this.length === this.slots.length) this.#grow(Math.max(4, this.length * 2));
    this.slots[this.length] = slot;
    this.values[this.length] = value;
    this.length++;
  }

  #grow(capacity: number): void {
    const slots = new Uint32Array(capacity);
    slots.set(this.slots.subarray(0, this.length));
    const values = this.#makeValues(capacity);
    values.set(this.values.subarray(0, this.length) as never);
    this.slots = slots;
    this.values = values;
  }
}

export const uint16 = (size: number) => new Uint16Array(size);
export const float32 = (size: number) => new Float32Array(size);
export const termPostings = (capacity?: number) => new Postings(uint16, capacity);
export const dimensionPostings = (capacity?: number) => new Postings(float32, capacity);

type PostingLike = { slots: Uint32Array; values: Uint16Array | Float32Array; length: number };

/** How many entries of the postings point at live slots (`renumbered[slot] >= 0`). */
export function countLiveEntries(
  postings: readonly (PostingLike | undefined)[],
  renumbered: Int32Array,
): number {
  let total = 0;
  for (const posting of postings) {
    for (let e = 0; e < (posting?.length ?? 0); e++) {
      if (renumbered[posting!.slots[e]!]! >= 0) total++;
    }
  }
  return total;
}

/**
 * Postings as flat arrays, live slots only and renumbered (`renumbered[slot]`,
 * -1 for a dead one): posting `i` is entries `offsets[i]` to `offsets[i + 1]`.
 */
export function flattenPostings<V extends Uint16Array | Float32Array>(
  postings: readonly (PostingLike | undefined)[],
  renumbered: Int32Array,
  makeValues: (size: number) => V,
): { offsets: Uint32Array; slots: Uint32Array; values: V; total: number } {
  const total = countLiveEntries(postings, renumbered);
  const offsets = new Uint32Array(postings.length + 1);
  const slots = new Uint32Array(total);
  const values = makeValues(total);
  let at = 0;
  postings.forEach((posting, i) => {
    offsets[i] = at;
    for (let e = 0; e < (posting?.length ?? 0); e++) {
      const slot = renumbered[posting!.slots[e]!]!;
      if (slot < 0) continue;
      slots[at] = slot;
      values[at++] = posting!.values[e]!;
    }
  });
  offsets[postings.length] = at;
  return { offsets, slots, values, total };
}

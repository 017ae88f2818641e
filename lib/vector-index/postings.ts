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

/**
 * How slots are renumbered for a checkpoint or a rebuild: `renumbered[slot]`
 * (-1 for a dead one), or `undefined` when every slot lives and keeps its
 * number (a namespace only ever added to, as HTTP ingest leaves it): then a
 * posting is copied whole, with no look-up per entry.
 */
export type Renumbering = Int32Array | undefined;

/** How many entries of the postings point at live slots (`renumbered[slot] >= 0`). */
export function countLiveEntries(
  postings: readonly (PostingLike | undefined)[],
  renumbered: Renumbering,
): number {
  let total = 0;
  for (const posting of postings) {
    if (!renumbered) {
      total += posting?.length ?? 0;
      continue;
    }
    for (let e = 0; e < (posting?.length ?? 0); e++) {
      if (renumbered[posting!.slots[e]!]! >= 0) total++;
    }
  }
  return total;
}

/**
 * Postings as flat arrays, live slots only and renumbered (`renumbered[slot]`,
 * -1 for a dead one): posting `i` is entries `offsets[i]` to `offsets[i + 1]`.
 * `only`: with every slot live, only what the caller writes is filled, the
 * rest left empty (a checkpoint writes offsets, slots and values as sections
 * of their own, a pass each).
 */
export function flattenPostings<V extends Uint16Array | Float32Array>(
  postings: readonly (PostingLike | undefined)[],
  renumbered: Renumbering,
  makeValues: (size: number) => V,
  only?: "offsets" | "slots" | "values",
): { offsets: Uint32Array; slots: Uint32Array; values: V; total: number } {
  const total = countLiveEntries(postings, renumbered);
  const offsets = new Uint32Array(postings.length + 1);
  if (!renumbered) return wholePostings(postings, total, offsets, makeValues, only);
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

/** Postings shorter than this are copied entry by entry. */
const SHORT_POSTING = 32;

/**
 * Every slot live: each posting copied whole, and only the part asked for (in
 * a profile of a checkpoint at 100k one-chunk documents, counting and copying
 * postings took about 0.7 s of CPU entry by entry, 0.2 s this way).
 */
function wholePostings<V extends Uint16Array | Float32Array>(
  postings: readonly (PostingLike | undefined)[],
  total: number,
  offsets: Uint32Array,
  makeValues: (size: number) => V,
  only: "offsets" | "slots" | "values" | undefined,
): { offsets: Uint32Array; slots: Uint32Array; values: V; total: number } {
  const slots = new Uint32Array(only === undefined || only === "slots" ? total : 0);
  const values = makeValues(only === undefined || only === "values" ? total : 0);
  let at = 0;
  postings.forEach((posting, i) => {
    offsets[i] = at;
    if (!posting) return;
    const { length } = posting;
    if (length < SHORT_POSTING) {
      // Most terms are rare: a loop beats making two subarrays to copy a few entries.
      for (let e = 0; e < length; e++) {
        if (slots.length) slots[at + e] = posting.slots[e]!;
        if (values.length) values[at + e] = posting.values[e]!;
      }
    } else {
      if (slots.length) slots.set(posting.slots.subarray(0, length), at);
      if (values.length) values.set(posting.values.subarray(0, length), at);
    }
    at += length;
  });
  offsets[postings.length] = at;
  return { offsets, slots, values, total };
}

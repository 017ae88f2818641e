/**
 * The `limit` best (slot, score) pairs of a stream, in a binary heap of two
 * typed arrays whose root is the worst kept: what a search's inner loop
 * offers millions of times without creating an object or a string. Ids are
 * resolved by the caller for the final few only. Ties go to the slot
 * `before` puts first (by default the smaller slot), so the order is stable.
 *
 * @example
 * const top = new SlotTopK(10);
 * for (let slot = 0; slot < scores.length; slot++) {
 *   if (scores[slot]! >= top.floor) top.offer(slot, scores[slot]!);
 * }
 * const { slots, scores: best } = top.sorted(); // best first
 */
export class SlotTopK {
  readonly limit: number;
  readonly #slots: Int32Array;
  readonly #scores: Float64Array;
  readonly #before: (a: number, b: number) => boolean;
  #size = 0;

  constructor(limit: number, before: (a: number, b: number) => boolean = (a, b) => a < b) {
    this.limit = Math.max(0, limit);
    this.#slots = new Int32Array(this.limit);
    this.#scores = new Float64Array(this.limit);
    this.#before = before;
  }

  get size(): number {
    return this.#size;
  }

  /** A score below this cannot be kept: the worst kept once full, -Infinity before (Infinity at limit 0). */
  get floor(): number {
    if (this.limit === 0) return Infinity;
    return this.#size < this.limit ? -Infinity : this.#scores[0]!;
  }

  offer(slot: number, score: number): void {
    if (this.#size < this.limit) {
      this.#slots[this.#size] = slot;
      this.#scores[this.#size] = score;
      this.#up(this.#size++);
    } else if (this.limit > 0 && this.#ranksAbove(slot, score, 0)) {
      this.#slots[0] = slot;
      this.#scores[0] = score;
      this.#down(0);
    }
  }

  /** The kept pairs, best first (fresh arrays); the heap is left empty for reuse. */
  sorted(): { slots: Int32Array; scores: Float64Array } {
    const slots = new Int32Array(this.#size);
    const scores = new Float64Array(this.#size);
    this.drainInto(slots, scores);
    return { slots, scores };
  }

  /**
   * The kept pairs, best first, written to the start of `slots` and `scores`
   * (each at least `size` long): their count. The heap is left empty for reuse.
   */
  drainInto(slots: Int32Array, scores: Float64Array): number {
    const count = this.#size;
    // Heap sort: the root is the worst, so popping fills the output from its end.
    for (let at = count - 1; at >= 0; at--) {
      slots[at] = this.#slots[0]!;
      scores[at] = this.#scores[0]!;
      this.#size--;
      this.#slots[0] = this.#slots[this.#size]!;
      this.#scores[0] = this.#scores[this.#size]!;
      this.#down(0);
    }
    return count;
  }

  /** Whether (slot, score) ranks above the pair at heap index `at`. */
  #ranksAbove(slot: number, score: number, at: number): boolean {
    const other = this.#scores[at]!;
    return score > other || (score === other && this.#before(slot, this.#slots[at]!));
  }

  #swap(a: number, b: number): void {
    const slot = this.#slots[a]!;
    const score = this.#scores[a]!;
    this.#slots[a] = this.#slots[b]!;
    this.#scores[a] = this.#scores[b]!;
    this.#slots[b] = slot;
    this.#scores[b] = score;
  }

  #up(index: number): void {
    while (index > 0) {
      const parent = (index - 1) >> 1;
      // The parent must be the worse of the two: stop once the child ranks above it.
      if (!this.#ranksAbove(this.#slots[parent]!, this.#scores[parent]!, index)) break;
      this.#swap(parent, index);
      index = parent;
    }
  }

  #down(index: number): void {
    const size = this.#size;
    for (;;) {
      const left = 2 * index + 1;
      const right = left + 1;
      let worst = index;
      if (left < size && this.#ranksAbove(this.#slots[worst]!, this.#scores[worst]!, left)) {
        worst = left;
      }
      if (right < size && this.#ranksAbove(this.#slots[worst]!, this.#scores[worst]!, right)) {
        worst = right;
      }
      if (worst === index) return;
      this.#swap(worst, index);
      index = worst;
    }
  }
}

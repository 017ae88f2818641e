export type Scored = { id: string; score: number };

/** Best first: higher score, then the smaller id (a stable, documented order). */
export function better(a: Scored, b: Scored): boolean {
  return a.score > b.score || (a.score === b.score && a.id < b.id);
}

/**
 * Keeps the `limit` best of a stream of scored ids in a binary heap whose
 * root is the worst kept, so choosing k of n costs O(n log k), not a sort of n.
 *
 * @example
 * const top = new TopK(2);
 * for (const hit of hits) top.offer(hit);
 * top.sorted(); // the two best, best first
 */
export class TopK {
  readonly #limit: number;
  readonly #heap: Scored[] = [];

  constructor(limit: number) {
    this.#limit = limit;
  }

  get size(): number {
    return this.#heap.length;
  }

  /** A score below this cannot be kept: the worst kept once full, -Infinity before. */
  get floor(): number {
    return this.#heap.length < this.#limit ? -Infinity : this.#heap[0]!.score;
  }

  offer(item: Scored): void {
    if (this.#limit <= 0) return;
    const heap = this.#heap;
    if (heap.length < this.#limit) {
      heap.push(item);
      this.#up(heap.length - 1);
    } else if (better(item, heap[0]!)) {
      heap[0] = item;
      this.#down(0);
    }
  }

  sorted(): Scored[] {
    return [...this.#heap].sort((a, b) => (better(a, b) ? -1 : better(b, a) ? 1 : 0));
  }

  #up(index: number): void {
    const heap = this.#heap;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!better(heap[parent]!, heap[index]!)) break;
      [heap[parent], heap[index]] = [heap[index]!, heap[parent]!];
      index = parent;
    }
  }

  #down(index: number): void {
    const heap = this.#heap;
    for (;;) {
      const left = 2 * index + 1;
      const right = left + 1;
      let worst = index;
      if (left < heap.length && better(heap[worst]!, heap[left]!)) worst = left;
      if (right < heap.length && better(heap[worst]!, heap[right]!)) worst = right;
      if (worst === index) return;
      [heap[worst], heap[index]] = [heap[index]!, heap[worst]!];
      index = worst;
    }
  }
}

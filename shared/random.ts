/**
 * A small seeded random number generator, so evaluations that shuffle or
 * resample give the same numbers for the same seed on Deno and on Workers.
 */

export { mulberry32 } from "../lib/vector-index/mod.ts";

/** A whole number in [0, n), drawn from `random`. */
export function randomIndex(random: () => number, n: number): number {
  return Math.floor(random() * n);
}

/** Fisher-Yates: shuffles `items` (an array or a typed array) in place, uniformly. */
export function shuffleInPlace<V>(
  items: { length: number; [index: number]: V },
  random: () => number,
): void {
  for (let i = items.length - 1; i > 0; i--) {
    const j = randomIndex(random, i + 1);
    const held = items[i] as V;
    items[i] = items[j] as V;
    items[j] = held;
  }
}

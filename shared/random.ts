/**
 * A small seeded random number generator, so evaluations that shuffle or
 * resample give the same numbers for the same seed on Deno and on Workers.
 */

/**
 * mulberry32: a 32-bit state PRNG returning floats in [0, 1). Fast and good
 * enough for shuffles and bootstrap resampling; not for anything secret. The
 * seed is taken modulo 2^32.
 *
 * @example
 * const random = mulberry32(42);
 * random(); // the same first value every time for seed 42
 */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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

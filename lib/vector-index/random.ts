/** A seeded PRNG for the index's tests, fixtures and benches; sift's evaluations use the same one. */

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

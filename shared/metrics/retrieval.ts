/**
 * Rank-based retrieval metrics over one query's ranked list, with a set of
 * relevant keys (here: the ids of documents a chunk must come from).
 */

/** 1 when a relevant item is within the first k, else 0. */
export function hitAtK(
  ranked: readonly string[],
  relevant: ReadonlySet<string>,
  k: number,
): number {
  return ranked.slice(0, k).some((key) => relevant.has(key)) ? 1 : 0;
}

/** 1 / rank of the first relevant item within the first k (ranks from 1), else 0. */
export function reciprocalRankAtK(
  ranked: readonly string[],
  relevant: ReadonlySet<string>,
  k: number,
): number {
  const position = ranked.slice(0, k).findIndex((key) => relevant.has(key));
  return position === -1 ? 0 : 1 / (position + 1);
}

export function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;
}

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

/**
 * The share of the first k positions holding a relevant item. Divides by k
 * even when fewer than k items were retrieved (trec_eval's P@k): a short
 * list is not rewarded for being short.
 *
 * @example
 * precisionAtK(["a", "x", "b"], new Set(["a", "b"]), 2); // 0.5
 */
export function precisionAtK(
  ranked: readonly string[],
  relevant: ReadonlySet<string>,
  k: number,
): number {
  checkK(k);
  return ranked.slice(0, k).filter((key) => relevant.has(key)).length / k;
}

/**
 * NDCG@k over graded gains given in ranked order (e.g. the judge's 0/1/2):
 * DCG = Σ gain_i / log2(i + 1) for ranks i = 1…k, with linear gains (not
 * 2^gain − 1), divided by the DCG of the ideal order. The ideal order is
 * `idealGains` (every judged item's gain, including those not retrieved)
 * sorted best first, or, without it, the retrieved gains themselves re-sorted.
 * 0 when the ideal DCG is 0 (nothing relevant to find).
 *
 * @example
 * ndcgAtK([0, 2, 1], 3); // ≈ 0.67
 */
export function ndcgAtK(
  gains: readonly number[],
  k: number,
  idealGains?: readonly number[],
): number {
  checkK(k);
  for (const gain of [...gains, ...(idealGains ?? [])]) {
    if (!Number.isFinite(gain) || gain < 0) {
      throw new RangeError("gains: must be finite numbers of at least 0");
    }
  }
  const ideal = [...(idealGains ?? gains)].sort((p, q) => q - p);
  const best = discountedGain(ideal, k);
  return best === 0 ? 0 : discountedGain(gains, k) / best;
}

export type UtilityScores = { precision: number; recall: number; f1: number };

/**
 * How well a selection of passages matches the ones that are actually useful
 * for the answer (utility judgments, paper 002): precision |S ∩ U| / |S|,
 * recall |S ∩ U| / |U|, F1 their harmonic mean. A ratio whose denominator is
 * empty is 0, and so is F1 when precision + recall is 0.
 *
 * @example
 * utilityPrecisionRecallF1(new Set(["a", "b"]), new Set(["b", "c", "d"]));
 * // { precision: 0.5, recall: 0.333, f1: 0.4 }
 */
export function utilityPrecisionRecallF1<T>(
  selected: ReadonlySet<T>,
  useful: ReadonlySet<T>,
): UtilityScores {
  let overlap = 0;
  for (const item of selected) if (useful.has(item)) overlap++;
  const precision = selected.size === 0 ? 0 : overlap / selected.size;
  const recall = useful.size === 0 ? 0 : overlap / useful.size;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1 };
}

function discountedGain(gains: readonly number[], k: number): number {
  return gains.slice(0, k).reduce((sum, gain, index) => sum + gain / Math.log2(index + 2), 0);
}

function checkK(k: number): void {
  if (!Number.isInteger(k) || k < 1) {
    throw new RangeError("k: must be a whole number of at least 1");
  }
}

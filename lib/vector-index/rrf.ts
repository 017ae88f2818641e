import {
  addFractions,
  compareFractions,
  divideFractions,
  type Fraction,
  fractionOf,
  ZERO,
} from "./fraction.ts";

/** The constant from Cormack et al.: damps the weight of the top ranks. */
export const DEFAULT_RRF_K = 60;

export type FusedItem = {
  id: string;
  rrf_score: number;
  /** This item's rank (from 1) in each input ranking, `null` where absent. */
  ranks: (number | null)[];
};

type Candidate = FusedItem & {
  firstSeen: number;
  bestRank: number;
  /** Σ |w_q| / (k + rank): bounds the rounding error of `rrf_score`. */
  magnitude: number;
  exact?: Fraction;
};

/**
 * Two floating-point sums closer than this share of their magnitude are
 * compared exactly. Summing m terms errs by at most about m · 2^-53 of the
 * magnitude, so sums further apart than this are ordered right by their
 * floats for up to a million rankings.
 */
const EXACT_BELOW = 1e-9;

/**
 * Reciprocal rank fusion: `score(d) = Σ_q w_q / (k + rank_q(d))`, ranks from 1.
 * A repeated id within one ranking counts at its first position only. Ties
 * break by the best single rank, then by first appearance, so the output is
 * deterministic.
 *
 * A tie is decided on the exact sums, not on floating-point ones (whose last
 * bit depends on the order of the additions): scores that are close are
 * recomputed as fractions. `k` and the weights are taken at the exact binary
 * value each number has, so integer weights (or none) tie exactly when the
 * rational sums are equal; a decimal weight such as 0.1, which has no exact
 * binary form, ties only where its binary value makes the sums equal.
 *
 * @example
 * reciprocalRankFusion([["a", "b"], ["b", "c"]])[0]?.id; // "b"
 */
export function reciprocalRankFusion(
  rankings: readonly (readonly string[])[],
  options: { k?: number; weights?: readonly number[] } = {},
): FusedItem[] {
  const k = options.k ?? DEFAULT_RRF_K;
  const weights = options.weights;
  if (!Number.isFinite(k) || k < 0) throw new RangeError("k must be a finite number of at least 0");
  if (weights && weights.length !== rankings.length) {
    throw new RangeError("weights must have one entry per ranking");
  }
  if (weights?.some((weight) => !Number.isFinite(weight))) {
    throw new RangeError("weights must be finite numbers");
  }
  const fused = new Map<string, Candidate>();
  rankings.forEach((ranking, rankingIndex) => {
    const weight = weights?.[rankingIndex] ?? 1;
    const seen = new Set<string>();
    ranking.forEach((id, position) => {
      if (seen.has(id)) return;
      seen.add(id);
      const rank = position + 1;
      let item = fused.get(id);
      if (!item) {
        item = {
          id,
          rrf_score: 0,
          ranks: rankings.map(() => null),
          firstSeen: fused.size,
          bestRank: rank,
          magnitude: 0,
        };
        fused.set(id, item);
      }
      item.rrf_score += weight / (k + rank);
      item.magnitude += Math.abs(weight) / (k + rank);
      item.ranks[rankingIndex] = rank;
      item.bestRank = Math.min(item.bestRank, rank);
    });
  });
  const exactScore = exactScorer(k, weights);
  const byScore = (x: Candidate, y: Candidate) => {
    const gap = y.rrf_score - x.rrf_score;
    if (Math.abs(gap) > EXACT_BELOW * Math.max(x.magnitude, y.magnitude)) return gap;
    x.exact ??= exactScore(x.ranks);
    y.exact ??= exactScore(y.ranks);
    return compareFractions(y.exact, x.exact);
  };
  const sorted = [...fused.values()]
    .sort((x, y) => byScore(x, y) || x.bestRank - y.bestRank || x.firstSeen - y.firstSeen);
  // Exactly tied items show one score, not two floats that differ in the last bit.
  sorted.forEach((item, position) => {
    const previous = sorted[position - 1];
    if (previous?.exact && item.exact && compareFractions(previous.exact, item.exact) === 0) {
      item.rrf_score = previous.rrf_score;
    }
  });
  return sorted.map(({ id, rrf_score, ranks }) => ({ id, rrf_score, ranks }));
}

/** `Σ_q w_q / (k + rank_q)` as an exact fraction, over the rankings an item appears in. */
function exactScorer(k: number, weights: readonly number[] | undefined) {
  const exactK = fractionOf(k);
  const exactWeights = new Map<number, Fraction>();
  const weightOf = (index: number) => {
    let weight = exactWeights.get(index);
    if (!weight) exactWeights.set(index, weight = fractionOf(weights?.[index] ?? 1));
    return weight;
  };
  return (ranks: readonly (number | null)[]): Fraction =>
    ranks.reduce<Fraction>(
      (sum, rank, index) =>
        rank === null ? sum : addFractions(
          sum,
          divideFractions(weightOf(index), addFractions(exactK, fractionOf(rank))),
        ),
      ZERO,
    );
}

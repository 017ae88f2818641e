/** The constant from Cormack et al.: damps the weight of the top ranks. */
export const DEFAULT_RRF_K = 60;

export type FusedItem = {
  id: string;
  rrf_score: number;
  /** This item's rank (from 1) in each input ranking, `null` where absent. */
  ranks: (number | null)[];
};

/**
 * Reciprocal rank fusion: `score(d) = Σ_q w_q / (k + rank_q(d))`, ranks from 1.
 * A repeated id within one ranking counts at its first position only. Ties
 * break by the best single rank, then by first appearance, so the output is
 * deterministic.
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
  if (weights && weights.length !== rankings.length) {
    throw new RangeError("weights must have one entry per ranking");
  }
  const fused = new Map<string, FusedItem & { firstSeen: number; bestRank: number }>();
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
        };
        fused.set(id, item);
      }
      item.rrf_score += weight / (k + rank);
      item.ranks[rankingIndex] = rank;
      item.bestRank = Math.min(item.bestRank, rank);
    });
  });
  return [...fused.values()]
    .sort((x, y) =>
      y.rrf_score - x.rrf_score || x.bestRank - y.bestRank || x.firstSeen - y.firstSeen
    )
    .map(({ id, rrf_score, ranks }) => ({ id, rrf_score, ranks }));
}

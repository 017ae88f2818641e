import type { DenseSizeReport } from "./bench-dense.ts";

/** One growing index measured at several sizes in one run, and each size over the smallest. */
export type GrowthReport = { sizes: DenseSizeReport[]; ratios: GrowthRatio[] };

/** A size's p50s over the smallest size's: speed targets as ratios of one run's measurements. */
export type GrowthRatio = {
  from: number;
  to: number;
  dense_p50: number;
  hybrid_p50: number;
  restart_first_search: number;
};

export function growthRatios(sizes: DenseSizeReport[]): GrowthRatio[] {
  const [first, ...rest] = sizes;
  if (!first) return [];
  return rest.map((size) => ({
    from: first.chunks,
    to: size.chunks,
    dense_p50: size.search_ms.dense.p50 / first.search_ms.dense.p50,
    hybrid_p50: size.search_ms.hybrid.p50 / first.search_ms.hybrid.p50,
    restart_first_search: size.restart_first_search_ms / first.restart_first_search_ms,
  }));
}

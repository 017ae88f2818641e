import { mulberry32, randomIndex } from "../random.ts";
import type { Interval } from "./stats.ts";

/** How intervals over repeated runs are computed; stated in the reports that use it. */
export const CLUSTER_BOOTSTRAP_METHOD =
  "95% percentile bootstrap of the mean over all runs, resampling questions (each with all " +
  "its runs; 2000 resamples, seeded)";

export type ClusterBootstrapOptions = {
  /** Resamples; default 2000. */
  resamples?: number;
  /** Seeds the draws (taken modulo 2^32); default 1, so a report is reproducible. */
  seed?: number;
  lower?: number;
  upper?: number;
};

/**
 * The mean of every value and a 95% percentile bootstrap interval for it,
 * where values come in clusters that are not independent (the runs of one
 * question). Each resample draws as many clusters as there are, with
 * replacement, and takes the mean of all their values; `ci_low` and
 * `ci_high` are the 2.5th and 97.5th percentiles of those means (linear
 * interpolation between order statistics). Resampling whole clusters keeps
 * a question's runs together in every draw: their spread moves that
 * question's mean and so the interval, while identical repeats do not narrow
 * it as independent values would. `n` counts the values; `null` without any.
 *
 * @example
 * clusterBootstrapInterval([[1, 0.8], [0.2, 0.4], [0.6, 0.6]]).mean; // 0.6
 */
export function clusterBootstrapInterval(
  clusters: readonly (readonly number[])[],
  options: ClusterBootstrapOptions = {},
): Interval | null {
  const filled = clusters.filter((cluster) => cluster.length > 0);
  const sums = filled.map((cluster) => cluster.reduce((sum, value) => sum + value, 0));
  const sizes = filled.map((cluster) => cluster.length);
  const n = sizes.reduce((sum, size) => sum + size, 0);
  if (n === 0) return null;
  const resamples = options.resamples ?? 2000;
  if (!Number.isInteger(resamples) || resamples < 1) {
    throw new RangeError("resamples: must be a whole number of at least 1");
  }
  const random = mulberry32(options.seed ?? 1);
  const means = new Float64Array(resamples);
  for (let draw = 0; draw < resamples; draw++) {
    let total = 0;
    let count = 0;
    for (let pick = 0; pick < filled.length; pick++) {
      const cluster = randomIndex(random, filled.length);
      total += sums[cluster]!;
      count += sizes[cluster]!;
    }
    means[draw] = total / count;
  }
  means.sort();
  const clamp = (value: number) =>
    Math.min(options.upper ?? Infinity, Math.max(options.lower ?? -Infinity, value));
  const mean = sums.reduce((sum, value) => sum + value, 0) / n;
  return {
    mean,
    ci_low: clamp(percentile(means, 0.025)),
    ci_high: clamp(percentile(means, 0.975)),
    n,
  };
}

function percentile(sorted: Float64Array, q: number): number {
  const position = q * (sorted.length - 1);
  const below = Math.floor(position);
  const above = Math.min(below + 1, sorted.length - 1);
  return sorted[below]! + (sorted[above]! - sorted[below]!) * (position - below);
}

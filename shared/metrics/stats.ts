/** A mean with its 95% confidence interval (Student t over queries). */
export type Interval = { mean: number; ci_low: number; ci_high: number; n: number };

/** How report intervals are computed; stated in every report. */
export const CI_METHOD =
  "95% Student t interval of the mean over queries (mean ± t(0.975, n−1) · s/√n)";

/** t(0.975, df) for df = 1..30 (standard tables, three decimals). */
const T_975 = [
  12.706,
  4.303,
  3.182,
  2.776,
  2.571,
  2.447,
  2.365,
  2.306,
  2.262,
  2.228,
  2.201,
  2.179,
  2.160,
  2.145,
  2.131,
  2.120,
  2.110,
  2.101,
  2.093,
  2.086,
  2.080,
  2.074,
  2.069,
  2.064,
  2.060,
  2.056,
  2.052,
  2.048,
  2.045,
  2.042,
];
const Z_975 = 1.959963984540054;

/**
 * The 0.975 quantile of Student's t with `df` degrees of freedom: the table
 * up to 30, then the Cornish-Fisher expansion around the normal quantile
 * (within 0.001 of the exact value from df = 30 on).
 *
 * @example
 * tCritical975(4); // 2.776
 */
export function tCritical975(df: number): number {
  if (df < 1) return Number.NaN;
  if (df <= 30) return T_975[Math.floor(df) - 1]!;
  const z = Z_975;
  return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2);
}

export function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;
}

/** The sample standard deviation (n − 1); 0 for fewer than two values. */
export function sampleStd(values: readonly number[]): number {
  if (values.length < 2) return 0;
  const center = mean(values);
  const squares = values.reduce((sum, value) => sum + (value - center) ** 2, 0);
  return Math.sqrt(squares / (values.length - 1));
}

/**
 * The mean and its 95% Student t interval, clamped to `[lower, upper]` (a
 * precision cannot exceed 1). One value gives a zero-width interval; none
 * gives `null`.
 *
 * @example
 * meanInterval([1, 0, 1, 1], { lower: 0, upper: 1 }); // {mean: 0.75, ci_low: 0, ci_high: 1, n: 4}
 */
export function meanInterval(
  values: readonly number[],
  bounds: { lower?: number; upper?: number } = {},
): Interval | null {
  const n = values.length;
  if (n === 0) return null;
  const center = mean(values);
  const half = n < 2 ? 0 : tCritical975(n - 1) * sampleStd(values) / Math.sqrt(n);
  const clamp = (value: number) =>
    Math.min(bounds.upper ?? Infinity, Math.max(bounds.lower ?? -Infinity, value));
  return { mean: center, ci_low: clamp(center - half), ci_high: clamp(center + half), n };
}

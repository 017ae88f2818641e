/**
 * How sure a difference or an agreement is: two-sided p-values computed as
 * SciPy computes them (`stats.kendalltau`, `stats.spearmanr`,
 * `stats.ttest_rel`, `stats.wilcoxon` with their defaults), so a number here
 * can be checked against a SciPy session. NaN where SciPy gives NaN (a
 * constant input, no differences at all).
 */
import { averageRanks, kendallTauB, spearmanRho } from "./agreement.ts";
import { normalTwoSided, studentTwoSided } from "./distributions.ts";

export type TestResult = { statistic: number; p_value: number };

function tieSums(values: readonly number[]) {
  const counts = new Map<number, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  let pairs = 0;
  let cubic = 0;
  let variance = 0;
  for (const count of counts.values()) {
    if (count < 2) continue;
    pairs += (count * (count - 1)) / 2;
    cubic += count * (count - 1) * (count - 2);
    variance += count * (count - 1) * (2 * count + 5);
  }
  return { pairs, cubic, variance };
}

/** Permutations of n items with at most c inversions, over n! (Mahonian numbers). */
function inversionsAtMost(n: number, c: number): number {
  let counts = [1];
  let factorial = 1;
  for (let j = 2; j <= n; j++) {
    const next = new Array<number>(Math.min(c, (j * (j - 1)) / 2) + 1).fill(0);
    for (let s = 0; s < next.length; s++) {
      for (let k = 0; k < j && k <= s; k++) next[s]! += counts[s - k] ?? 0;
    }
    counts = next;
    factorial *= j;
  }
  return counts.slice(0, c + 1).reduce((sum, value) => sum + value, 0) / factorial;
}

/**
 * Kendall's tau-b with SciPy's two-sided p-value (`method="auto"`): exact
 * (the permutation distribution) without ties when n ≤ 33, else the normal
 * approximation with the tie-corrected variance.
 *
 * @example
 * kendallTauBTest([12, 2, 1, 12, 2], [1, 4, 7, 1, 0]); // {statistic: −0.471, p_value: 0.283}
 */
export function kendallTauBTest(x: readonly number[], y: readonly number[]): TestResult {
  const tau = kendallTauB(x, y);
  const n = x.length;
  if (Number.isNaN(tau)) return { statistic: NaN, p_value: NaN };
  const total = (n * (n - 1)) / 2;
  const xt = tieSums(x);
  const yt = tieSums(y);
  const difference = tau * Math.sqrt((total - xt.pairs) * (total - yt.pairs));
  if (xt.pairs === 0 && yt.pairs === 0) {
    const discordant = Math.round((total - difference) / 2);
    const c = Math.min(discordant, total - discordant);
    if (n <= 33 || c <= 1) {
      const p = 2 * c === total ? 1 : Math.min(1, 2 * inversionsAtMost(n, c));
      return { statistic: tau, p_value: p };
    }
  }
  const m = n * (n - 1);
  const variance = (m * (2 * n + 5) - xt.variance - yt.variance) / 18 +
    (2 * xt.pairs * yt.pairs) / m +
    (xt.cubic * yt.cubic) / (9 * m * (n - 2));
  return { statistic: tau, p_value: normalTwoSided(difference / Math.sqrt(variance)) };
}

/**
 * Spearman's rho with SciPy's two-sided p-value: t = rho √((n − 2) / (1 − rho²))
 * on n − 2 degrees of freedom.
 *
 * @example
 * spearmanRhoTest([1, 2, 3, 4, 5], [5, 6, 7, 8, 7]); // {statistic: 0.821, p_value: 0.0886}
 */
export function spearmanRhoTest(x: readonly number[], y: readonly number[]): TestResult {
  const rho = spearmanRho(x, y);
  const df = x.length - 2;
  if (Number.isNaN(rho) || df < 1) return { statistic: rho, p_value: NaN };
  const t = rho * Math.sqrt(df / ((rho + 1) * (1 - rho)));
  return { statistic: rho, p_value: studentTwoSided(t, df) };
}

function differences(a: readonly number[], b: readonly number[]): number[] {
  if (a.length !== b.length) throw new RangeError("b: must have as many values as a");
  const bad = [...a, ...b].findIndex((value) => !Number.isFinite(value));
  if (bad !== -1) throw new RangeError("a, b: must hold finite numbers");
  return a.map((value, index) => value - b[index]!);
}

/**
 * The paired t-test of a − b (SciPy's `ttest_rel(a, b)`): t = mean / (s / √n)
 * on n − 1 degrees of freedom. NaN for fewer than two pairs or no spread.
 *
 * @example
 * pairedTTest([0.6, 0.7, 0.8], [0.5, 0.5, 0.6]).p_value; // ≈ 0.0377
 */
export function pairedTTest(a: readonly number[], b: readonly number[]): TestResult {
  const d = differences(a, b);
  const n = d.length;
  if (n < 2) return { statistic: NaN, p_value: NaN };
  const mean = d.reduce((sum, value) => sum + value, 0) / n;
  const variance = d.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (n - 1);
  if (variance === 0) return { statistic: NaN, p_value: NaN };
  const t = mean / Math.sqrt(variance / n);
  return { statistic: t, p_value: studentTwoSided(t, n - 1) };
}

/** Subsets of ranks 1…n whose sum is at most `most`, over 2^n. */
function signedRankAtMost(n: number, most: number): number {
  const counts = new Array<number>(most + 1).fill(0);
  counts[0] = 1;
  for (let rank = 1; rank <= n; rank++) {
    for (let sum = most; sum >= rank; sum--) counts[sum]! += counts[sum - rank]!;
  }
  return counts.reduce((sum, value) => sum + value, 0) / 2 ** n;
}

/**
 * The share of the 2^n sign assignments of the non-zero differences whose
 * positive rank sum is at most / at least `observed` (SciPy's permutation
 * test of the statistic: flipping a zero's sign changes nothing, so the
 * zeros only repeat each assignment and leave the shares as they are).
 * SciPy compares with a relative tolerance of 100 machine epsilons.
 */
function signFlipShares(ranks: readonly number[], observed: number) {
  const gamma = Math.abs(observed) * Number.EPSILON * 100;
  let atMost = 0;
  let atLeast = 0;
  const total = 2 ** ranks.length;
  for (let signs = 0; signs < total; signs++) {
    let plus = 0;
    for (let i = 0; i < ranks.length; i++) if (signs & (1 << i)) plus += ranks[i]!;
    if (plus <= observed + gamma) atMost++;
    if (plus >= observed - gamma) atLeast++;
  }
  return { atMost: atMost / total, atLeast: atLeast / total };
}

/** Above this many differences (zeros included), SciPy's `method="auto"` is the normal approximation. */
const WILCOXON_EXACT_MAX = 50;
/** At or below this many (zeros included), zeros or ties make `auto` an exhaustive permutation test. */
const WILCOXON_PERMUTATION_MAX = 13;

/**
 * The Wilcoxon signed-rank test of a − b with SciPy's defaults, as in SciPy
 * 1.17 (`scipy/stats/_wilcoxon.py`; unchanged in 1.18): `wilcoxon(a, b)`
 * with `zero_method="wilcox"` (zero differences get no rank),
 * `correction=False` and `method="auto"`. The statistic is the smaller of
 * the positive and negative rank sums. `auto` picks, by n = all differences,
 * zeros included:
 * - n > 50: the normal approximation (tie-corrected variance over the non-zero ones);
 * - no zero and no tied |difference|: the exact signed-rank distribution;
 * - zeros or ties and n ≤ 13: a permutation test over every sign flip
 *   (2^n ≤ 9999 resamples, so SciPy enumerates them all: exact for the data);
 * - zeros or ties and 13 < n ≤ 50: the normal approximation.
 * Debian's SciPy 1.10 differs (it used the normal approximation with zeros).
 *
 * @example
 * wilcoxonSignedRank([0, 1, 0, 0, 1], [0, 0, 0, 0, 0]); // {statistic: 0, p_value: 0.5}
 */
export function wilcoxonSignedRank(a: readonly number[], b: readonly number[]): TestResult {
  const all = differences(a, b);
  const d = all.filter((value) => value !== 0);
  const n = d.length;
  const ranks = averageRanks(d.map(Math.abs));
  let plus = 0;
  let minus = 0;
  d.forEach((value, index) => value > 0 ? (plus += ranks[index]!) : (minus += ranks[index]!));
  const statistic = Math.min(plus, minus);
  const ties = tieSums(d.map(Math.abs));
  if (all.length === 0) return { statistic: NaN, p_value: NaN };
  const zerosOrTies = n < all.length || ties.pairs > 0;
  if (all.length <= WILCOXON_EXACT_MAX && !zerosOrTies) {
    return { statistic, p_value: Math.min(1, 2 * signedRankAtMost(n, statistic)) };
  }
  if (all.length <= WILCOXON_PERMUTATION_MAX) {
    const shares = signFlipShares(ranks, plus);
    return { statistic, p_value: Math.min(1, 2 * Math.min(shares.atMost, shares.atLeast)) };
  }
  if (n === 0) return { statistic: NaN, p_value: NaN };
  const counts = new Map<number, number>();
  for (const value of d) counts.set(Math.abs(value), (counts.get(Math.abs(value)) ?? 0) + 1);
  let correction = 0;
  for (const count of counts.values()) correction += count ** 3 - count;
  const mean = (n * (n + 1)) / 4;
  const variance = (n * (n + 1) * (2 * n + 1)) / 24 - correction / 48;
  return { statistic, p_value: normalTwoSided((statistic - mean) / Math.sqrt(variance)) };
}

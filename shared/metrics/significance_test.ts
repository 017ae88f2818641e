/**
 * The p-values against fixed cases whose references come from two places:
 * - "SciPy docs": the printed results of the examples on SciPy's own pages
 *   (stats.kendalltau, stats.spearmanr, stats.wilcoxon);
 * - "independent": tests/unit/significance_reference.py, which recomputes them
 *   without SciPy and without this code (Student's t from the closed-form
 *   series of Abramowitz & Stegun 26.7.3/26.7.4, the normal tail from
 *   math.erfc, exact null distributions counted with integers). It also
 *   reproduces the SciPy-docs values to 1e-15.
 */
import assert from "node:assert/strict";
import {
  kendallTauBTest,
  pairedTTest,
  spearmanRhoTest,
  wilcoxonSignedRank,
} from "./significance.ts";
import { studentTwoSided } from "./distributions.ts";

function close(actual: number, expected: number, label: string) {
  assert.ok(Math.abs(actual - expected) <= 1e-6, `${label}: ${actual} ≠ ${expected}`);
}

const TIED_X = [1, 1, 2, 3, 3, 3, 4, 5, 6, 6];
const TIED_Y = [2, 1, 1, 3, 4, 3, 5, 7, 6, 6];

Deno.test("kendallTauBTest() matches SciPy's kendalltau, asymptotic with ties and exact without", () => {
  // SciPy docs: kendalltau([12, 2, 1, 12, 2], [1, 4, 7, 1, 0]) → -0.47140452079103173, 0.2827454599327748.
  const docs = kendallTauBTest([12, 2, 1, 12, 2], [1, 4, 7, 1, 0]);
  close(docs.statistic, -0.47140452079103173, "tau");
  close(docs.p_value, 0.2827454599327748, "p (docs)");
  // Independent: the exact permutation distribution (no ties, n = 8).
  const exact = kendallTauBTest([1, 2, 3, 4, 5, 6, 7, 8], [2, 1, 4, 3, 6, 5, 8, 7]);
  close(exact.statistic, 0.7142857142857143, "tau (exact)");
  close(exact.p_value, 0.014136904761904762, "p (exact)");
  // Independent: ties in both, the tie-corrected normal approximation.
  const tied = kendallTauBTest(TIED_X, TIED_Y);
  close(tied.statistic, 0.8051175601825399, "tau (ties)");
  close(tied.p_value, 0.0022490573909353154, "p (ties)");
});

Deno.test("spearmanRhoTest() matches SciPy's spearmanr through the t transform", () => {
  // SciPy docs: spearmanr([1, 2, 3, 4, 5], [5, 6, 7, 8, 7]) → 0.8207826816681233, 0.08858700531354381.
  const docs = spearmanRhoTest([1, 2, 3, 4, 5], [5, 6, 7, 8, 7]);
  close(docs.statistic, 0.8207826816681233, "rho");
  close(docs.p_value, 0.08858700531354381, "p (docs)");
  // Independent.
  const tied = spearmanRhoTest(TIED_X, TIED_Y);
  close(tied.statistic, 0.925274054251873, "rho (ties)");
  close(tied.p_value, 0.0001245597768155804, "p (ties)");
});

Deno.test("pairedTTest() matches SciPy's ttest_rel", () => {
  // Independent (A&S 26.7.3/26.7.4 for the t tail).
  const result = pairedTTest(
    [0.61, 0.72, 0.55, 0.80, 0.47, 0.66, 0.71, 0.59],
    [0.52, 0.70, 0.41, 0.77, 0.50, 0.58, 0.62, 0.55],
  );
  close(result.statistic, 3.0774320845949, "t");
  close(result.p_value, 0.017879765715722473, "p");
  const one = pairedTTest([3, 5], [1, 2]);
  close(one.p_value, 0.12566591637800228, "p (df 1)");
  assert.ok(Number.isNaN(pairedTTest([1, 2], [1, 2]).p_value), "no spread: NaN, as SciPy");
});

Deno.test("wilcoxonSignedRank() matches SciPy's wilcoxon, exact and approximate", () => {
  // SciPy docs: wilcoxon(d) → statistic 24.0, p 0.041259765625 (exact).
  const d = [6, 8, 14, 16, 23, 24, 28, 29, 41, -48, 49, 56, 60, -67, 75];
  const docs = wilcoxonSignedRank(d, d.map(() => 0));
  assert.equal(docs.statistic, 24);
  close(docs.p_value, 0.041259765625, "p (docs)");
});

/**
 * The exact two-sided p-value of the observed differences, computed the
 * slow way on its own: rank |d| of the non-zero differences (average ranks
 * for ties), then flip every difference's sign (zeros included, all 2^n
 * ways) and count how often the positive rank sum is at most, and at least,
 * the observed one. This is what an exact permutation test is.
 */
function bruteForceSignFlipP(d: readonly number[]): number {
  const nonZero = d.filter((value) => value !== 0).map(Math.abs);
  const rankOf = (value: number) => {
    const below = nonZero.filter((other) => other < value).length;
    const equal = nonZero.filter((other) => other === value).length;
    return below + (equal + 1) / 2;
  };
  const positiveSum = (signed: readonly number[]) =>
    signed.reduce((sum, value) => value > 0 ? sum + rankOf(Math.abs(value)) : sum, 0);
  const observed = positiveSum(d);
  let atMost = 0;
  let atLeast = 0;
  for (let signs = 0; signs < 2 ** d.length; signs++) {
    const flipped = d.map((value, i) => (signs >> i) & 1 ? -value : value);
    const sum = positiveSum(flipped);
    if (sum <= observed) atMost++;
    if (sum >= observed) atLeast++;
  }
  return Math.min(1, (2 * Math.min(atMost, atLeast)) / 2 ** d.length);
}

const againstZero = (d: readonly number[]) => wilcoxonSignedRank(d, d.map(() => 0));

Deno.test("wilcoxonSignedRank() with zeros, n = 5: SciPy 1.17 gives 0.5 (1.10's approximation gave 0.157)", () => {
  const d = [0, 1, 0, 0, 1];
  const result = againstZero(d);
  assert.equal(result.statistic, 0);
  // By hand: the two 1s share rank 1.5; of their 4 sign patterns, 1 reaches the observed 3.
  close(result.p_value, 0.5, "p");
  close(result.p_value, bruteForceSignFlipP(d), "p (enumerated)");
});

Deno.test("wilcoxonSignedRank() with zeros and ties, n = 8 and n = 12, is the enumerated sign-flip p", () => {
  const eight = [0, 2, -1, 2, 3, 0, -2, 4];
  const eightResult = againstZero(eight);
  // Ranks: |1| 1, |2| (2+3+4)/3 = 3 each, |3| 5, |4| 6; r+ = 3+3+5+6 = 17, r− = 1+3 = 4.
  assert.equal(eightResult.statistic, 4);
  close(eightResult.p_value, bruteForceSignFlipP(eight), "p (n = 8)");
  close(eightResult.p_value, 0.25, "p (n = 8, tests/unit/significance_reference.py)");
  const twelve = [1.5, -0.5, 0, 2, 2, -2, 3.5, 0, 1, 1.5, -1, 4];
  const twelveResult = againstZero(twelve);
  close(twelveResult.p_value, bruteForceSignFlipP(twelve), "p (n = 12)");
  close(twelveResult.p_value, 0.091796875, "p (n = 12, tests/unit/significance_reference.py)");
  const ten = againstZero([0.5, 0.5, 0.3, 0.0, -0.2, 0.5, 0.1, 0.3, -0.1, 0.4]);
  assert.equal(ten.statistic, 4.5);
  close(ten.p_value, 0.03515625, "p (n = 10, tests/unit/significance_reference.py)");
  // Ties only (no zero) take the same route.
  const tiesOnly = [3, 3, -1, 2, 5, 5, 4, -2];
  close(againstZero(tiesOnly).p_value, bruteForceSignFlipP(tiesOnly), "p (ties, n = 8)");
});

Deno.test("wilcoxonSignedRank() without zeros or ties, n = 12, is the exact distribution", () => {
  const d = [1, -2, 3, 4, 5, -6, 7, 8, 9, 10, 11, 12];
  close(againstZero(d).p_value, bruteForceSignFlipP(d), "p");
});

Deno.test("wilcoxonSignedRank() with zeros above n = 13 is the normal approximation, uncorrected", () => {
  // 14 differences, two of them zero: 12 ranked. |d| = 1..12 with one tie pair (5, 5).
  const d = [0, 0, 1, 2, 3, 4, 5, 5, -7, 8, 9, 10, 11, -12];
  const result = againstZero(d);
  // Ranks: 1..4 for 1..4, 5.5 and 5.5 for the two 5s, then 7..12. r− = 7 + 12 = 19.
  assert.equal(result.statistic, 19);
  // n = 12: mean 12·13/4 = 39; variance 12·13·25/24 − (2³ − 2)/48 = 162.5 − 0.125 = 162.375.
  // z = (19 − 39)/√162.375 = −1.5695329; p = erfc(|z|/√2) = 0.1165238 (Python: math.erfc).
  close(result.p_value, 0.11652382807949319, "p");
});

Deno.test("studentTwoSided() is 1 at t = 0 and falls with |t|", () => {
  close(studentTwoSided(0, 5), 1, "t = 0");
  assert.ok(studentTwoSided(3, 5) < studentTwoSided(2, 5));
  close(studentTwoSided(-2, 7), studentTwoSided(2, 7), "symmetric");
});

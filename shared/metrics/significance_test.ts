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
  // Independent: a zero and ties, so the normal approximation with the tie correction.
  const approx = wilcoxonSignedRank([0.5, 0.5, 0.3, 0.0, -0.2, 0.5, 0.1, 0.3, -0.1, 0.4], [
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
  ]);
  assert.equal(approx.statistic, 4.5);
  close(approx.p_value, 0.03205141618214231, "p (approx)");
});

Deno.test("studentTwoSided() is 1 at t = 0 and falls with |t|", () => {
  close(studentTwoSided(0, 5), 1, "t = 0");
  assert.ok(studentTwoSided(3, 5) < studentTwoSided(2, 5));
  close(studentTwoSided(-2, 7), studentTwoSided(2, 7), "symmetric");
});

import assert from "node:assert/strict";
import {
  averageRanks,
  blandAltman,
  kendallTauB,
  spearmanRho,
} from "../../shared/metrics/agreement.ts";

function near(actual: number, expected: number, label = "", tolerance = 1e-9) {
  assert.ok(
    Math.abs(actual - expected) <= tolerance,
    `${label} expected ${expected}, got ${actual}`,
  );
}

/**
 * Reference values from SciPy 1.17 (statistic only):
 *
 *   from scipy.stats import kendalltau, spearmanr
 *   for x, y in cases: print(kendalltau(x, y).statistic, spearmanr(x, y).statistic)
 *   # "generated": x = [(i*7+3)%5 for i in range(300)]; y = [x[i]+(i*i)%5-2 for i in range(300)]
 *   # "long": x = [((i*37)%101)/7 for i in range(2000)]
 *   #         y = [((i*53)%89)/3 + (i%10) for i in range(2000)]
 */
const SCIPY_CASES: { name: string; x: number[]; y: number[]; tau: number; rho: number }[] = [
  {
    name: "no ties",
    x: [1, 2, 3, 4, 5, 6, 7, 8],
    y: [2, 1, 4, 3, 6, 8, 5, 7],
    tau: 0.6428571428571428,
    rho: 0.8333333333333335,
  },
  {
    name: "ties in both (0-2 grades)",
    x: [0, 1, 2, 2, 1, 0, 2, 1, 1, 0],
    y: [0, 2, 2, 1, 1, 0, 2, 0, 1, 1],
    tau: 0.6060606060606061,
    rho: 0.6666666666666666,
  },
  {
    name: "ties in x only",
    x: [1, 1, 2, 2, 3, 3],
    y: [0.5, 1.5, -2, 3.25, 4, 2],
    tau: 0.4472135954999579,
    rho: 0.5976143046671969,
  },
  {
    name: "floats with a joint tie",
    x: [0.1, 0.4, 0.4, 0.9, -1.2, 3.3, 0.4],
    y: [5, 7, 7, 2, 1, 9, 3],
    tau: 0.42163702135578396,
    rho: 0.523570314404736,
  },
  { name: "perfect inverse", x: [1, 2, 3, 4], y: [40, 30, 20, 10], tau: -1, rho: -1 },
  { name: "two values", x: [1, 2], y: [3, 3.5], tau: 1, rho: 0.9999999999999999 },
  (() => {
    const x = Array.from({ length: 300 }, (_, i) => (i * 7 + 3) % 5);
    const y = x.map((value, i) => value + (i * i) % 5 - 2);
    return { name: "generated", x, y, tau: 0.8, rho: 0.8999999999999999 };
  })(),
  {
    name: "long",
    x: Array.from({ length: 2000 }, (_, i) => ((i * 37) % 101) / 7),
    y: Array.from({ length: 2000 }, (_, i) => ((i * 53) % 89) / 3 + (i % 10)),
    tau: 0.0013581783706790266,
    rho: 0.002988499402321885,
  },
];

Deno.test("kendallTauB() matches scipy.stats.kendalltau to 1e-9, ties included", () => {
  for (const { name, x, y, tau } of SCIPY_CASES) near(kendallTauB(x, y), tau, name);
});

Deno.test("spearmanRho() matches scipy.stats.spearmanr to 1e-9, ties included", () => {
  for (const { name, x, y, rho } of SCIPY_CASES) near(spearmanRho(x, y), rho, name);
});

Deno.test("kendallTauB() agrees with the paper's (P − Q) / √((P + Q + T)(P + Q + U)) by brute force", () => {
  for (const { name, x, y } of SCIPY_CASES.filter((item) => item.x.length <= 300)) {
    let concordant = 0, discordant = 0, onlyX = 0, onlyY = 0;
    for (let i = 0; i < x.length; i++) {
      for (let j = i + 1; j < x.length; j++) {
        const dx = Math.sign(x[i]! - x[j]!);
        const dy = Math.sign(y[i]! - y[j]!);
        if (dx === 0 && dy !== 0) onlyX++;
        else if (dy === 0 && dx !== 0) onlyY++;
        else if (dx * dy > 0) concordant++;
        else if (dx * dy < 0) discordant++;
      }
    }
    const expected = (concordant - discordant) /
      Math.sqrt((concordant + discordant + onlyX) * (concordant + discordant + onlyY));
    near(kendallTauB(x, y), expected, name);
  }
});

Deno.test("kendallTauB() and spearmanRho() are NaN for a constant input, as SciPy's", () => {
  assert.ok(Number.isNaN(kendallTauB([1, 1, 1], [1, 2, 3])));
  assert.ok(Number.isNaN(spearmanRho([1, 1, 1], [1, 2, 3])));
  assert.ok(Number.isNaN(kendallTauB([1, 2, 3], [0, 0, 0])));
});

Deno.test("averageRanks() gives tied values the mean of their ranks", () => {
  assert.deepEqual(averageRanks([10, 20, 10, 30, 20, 20]), [1.5, 4, 1.5, 6, 4, 4]);
});

Deno.test("blandAltman() is mean(x − y) ± 1.96 × the sample standard deviation", () => {
  const x = [2, 1, 2, 0, 1, 2, 2, 1];
  const y = [1, 1, 2, 1, 0, 2, 1, 1];
  // x − y = [1, 0, 0, −1, 1, 0, 1, 0]: mean 0.25, Σ(d − 0.25)² = 3.5, s = √(3.5 / 7).
  const s = Math.sqrt(3.5 / 7);
  const { bias, lower, upper } = blandAltman(x, y);
  near(bias, 0.25);
  near(lower, 0.25 - 1.96 * s);
  near(upper, 0.25 + 1.96 * s);
  // numpy: d.mean() ± 1.96 * d.std(ddof=1) for d = x − y above.
  near(lower, -1.1359292911256331);
  near(upper, 1.6359292911256331);
  assert.deepEqual(blandAltman([3, 4], [3, 4]), { bias: 0, lower: 0, upper: 0 });
});

Deno.test("the agreement metrics reject unpaired, short or non-finite input", () => {
  assert.throws(() => kendallTauB([1, 2, 3], [1, 2]), /y: must have as many values as x/);
  assert.throws(() => spearmanRho([1], [1]), /x: must have at least 2 values/);
  assert.throws(() => blandAltman([1, Number.NaN], [1, 2]), /x\.1: must be a finite number/);
});

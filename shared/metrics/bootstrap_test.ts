import assert from "node:assert/strict";
import { clusterBootstrapInterval } from "./bootstrap.ts";
import { meanInterval } from "./stats.ts";

Deno.test("clusterBootstrapInterval() centres on the mean of every value and is reproducible", () => {
  const clusters = [[1, 0.8], [0.2, 0.4], [0.6, 0.6], [0.9, 0.7]];
  const interval = clusterBootstrapInterval(clusters)!;
  assert.ok(Math.abs(interval.mean - 5.2 / 8) < 1e-12);
  assert.equal(interval.n, 8);
  assert.ok(interval.ci_low < interval.mean && interval.mean < interval.ci_high);
  assert.deepEqual(clusterBootstrapInterval(clusters), interval, "seeded: the same every time");
  assert.equal(clusterBootstrapInterval([]), null);
  assert.equal(clusterBootstrapInterval([[]]), null);
});

Deno.test("clusterBootstrapInterval() is not narrowed by identical repeats, as pooling would be", () => {
  const once = [[1], [0], [1], [0.5], [0.25], [0.75]];
  const thrice = once.map(([value]) => [value!, value!, value!]);
  const single = clusterBootstrapInterval(once)!;
  const repeated = clusterBootstrapInterval(thrice)!;
  assert.equal(repeated.ci_low, single.ci_low);
  assert.equal(repeated.ci_high, single.ci_high);
  // Treating the 18 values as independent would claim three times the evidence.
  const pooled = meanInterval(thrice.flat())!;
  assert.ok(pooled.ci_high - pooled.ci_low < repeated.ci_high - repeated.ci_low);
});

Deno.test("clusterBootstrapInterval() widens with the spread of a question's runs and clamps to bounds", () => {
  const steady = clusterBootstrapInterval([[0.5, 0.5], [0.5, 0.5], [0.6, 0.6], [0.4, 0.4]])!;
  const noisy = clusterBootstrapInterval([[0.9, 0.5], [0.1, 0.5], [1, 0.2], [0.4, 0]])!;
  assert.ok(noisy.ci_high - noisy.ci_low > steady.ci_high - steady.ci_low);
  const bounded = clusterBootstrapInterval([[1, 1], [1, 0.9]], { lower: 0, upper: 1 })!;
  assert.ok(bounded.ci_high <= 1);
  assert.throws(() => clusterBootstrapInterval([[1]], { resamples: 0 }), RangeError);
});

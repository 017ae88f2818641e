import assert from "node:assert/strict";
import { DEFAULT_RRF_K, reciprocalRankFusion } from "../../shared/search/rrf.ts";

function near(actual: number, expected: number, label = "") {
  assert.ok(Math.abs(actual - expected) <= 1e-12, `${label} expected ${expected}, got ${actual}`);
}

Deno.test("reciprocalRankFusion() scores Σ 1/(60 + rank) with ranks from 1", () => {
  assert.equal(DEFAULT_RRF_K, 60);
  const fused = reciprocalRankFusion([["a", "b", "c"], ["b", "c"]]);
  assert.deepEqual(fused.map((item) => item.id), ["b", "c", "a"]);
  const byId = Object.fromEntries(fused.map((item) => [item.id, item]));
  near(byId.a!.rrf_score, 1 / 61, "a");
  near(byId.b!.rrf_score, 1 / 62 + 1 / 61, "b");
  near(byId.c!.rrf_score, 1 / 63 + 1 / 62, "c");
  assert.deepEqual(byId.a!.ranks, [1, null]);
  assert.deepEqual(byId.b!.ranks, [2, 1]);
  assert.deepEqual(byId.c!.ranks, [3, 2]);
});

Deno.test("reciprocalRankFusion() ranks an id found by every ranking first", () => {
  const fused = reciprocalRankFusion([["x", "shared"], ["y", "shared"], ["z", "shared"]]);
  assert.equal(fused[0]!.id, "shared");
});

Deno.test("reciprocalRankFusion() multiplies each ranking's term by its weight", () => {
  const fused = reciprocalRankFusion([["a", "b"], ["b", "a"]], { weights: [3, 0.5] });
  const byId = Object.fromEntries(fused.map((item) => [item.id, item.rrf_score]));
  near(byId.a!, 3 / 61 + 0.5 / 62, "a");
  near(byId.b!, 3 / 62 + 0.5 / 61, "b");
  assert.deepEqual(fused.map((item) => item.id), ["a", "b"]);
});

Deno.test("reciprocalRankFusion() uses a custom k", () => {
  const fused = reciprocalRankFusion([["a", "b"], ["b"]], { k: 1 });
  const byId = Object.fromEntries(fused.map((item) => [item.id, item.rrf_score]));
  near(byId.a!, 1 / 2);
  near(byId.b!, 1 / 3 + 1 / 2);
});

Deno.test("reciprocalRankFusion() counts a repeated id once, at its first position", () => {
  const fused = reciprocalRankFusion([["a", "a", "b"]]);
  const byId = Object.fromEntries(fused.map((item) => [item.id, item]));
  near(byId.a!.rrf_score, 1 / 61);
  assert.deepEqual(byId.a!.ranks, [1]);
  assert.deepEqual(byId.b!.ranks, [3], "later ids keep their position in the list");
  near(byId.b!.rrf_score, 1 / 63);
});

Deno.test("reciprocalRankFusion() breaks ties by best single rank, then by first appearance", () => {
  // k = 0: x, y and a score 1/1; b scores 1/2 + 1/2 = 1 exactly but its best rank is 2.
  const fused = reciprocalRankFusion([["x", "b"], ["y", "b"], ["a"]], { k: 0 });
  for (const item of fused) assert.equal(item.rrf_score, 1);
  assert.deepEqual(fused.map((item) => item.id), ["x", "y", "a", "b"]);
  const again = reciprocalRankFusion([["x", "b"], ["y", "b"], ["a"]], { k: 0 });
  assert.deepEqual(again, fused);
});

Deno.test("reciprocalRankFusion() refuses weights that do not match the rankings", () => {
  assert.throws(() => reciprocalRankFusion([["a"], ["b"]], { weights: [1] }), RangeError);
});

Deno.test("reciprocalRankFusion() of no rankings or empty rankings is empty", () => {
  assert.deepEqual(reciprocalRankFusion([]), []);
  assert.deepEqual(reciprocalRankFusion([[], []]), []);
});

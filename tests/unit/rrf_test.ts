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

// The case: x0 and x10 each hold ranks {1, 1, 2, 3}, so their sums are the same
// rational number, but added in different orders the floats differ in the last bit.
const EXACT_TIE = [
  ["x10", "x3", "x0"],
  ["x10", "x0", "x3"],
  ["x0", "x10", "x3"],
  ["x0", "x3", "x10"],
];

Deno.test("reciprocalRankFusion() decides an exact tie by the rule, not by floating-point rounding", () => {
  // The premise: summed in each item's order, the floats put x0 ahead.
  assert.ok(1 / 63 + 1 / 62 + 1 / 61 + 1 / 61 > 1 / 61 + 1 / 61 + 1 / 62 + 1 / 63);
  const fused = reciprocalRankFusion(EXACT_TIE, { k: 60 });
  // Both have best rank 1; x10 appeared first.
  assert.deepEqual(fused.map((item) => item.id), ["x10", "x0", "x3"]);
  assert.equal(fused[0]!.rrf_score, fused[1]!.rrf_score, "exactly tied ids show one score");
  assert.deepEqual(fused[1]!.ranks, [3, 2, 1, 1]);
  // Weights with an exact binary value (here 0.5 each) halve every term and keep the tie.
  const halved = reciprocalRankFusion(EXACT_TIE, { weights: [0.5, 0.5, 0.5, 0.5] });
  assert.deepEqual(halved.map((item) => item.id), ["x10", "x0", "x3"]);
});

Deno.test("reciprocalRankFusion() decides an exact tie under integer weights", () => {
  // a: 3/61 + 2/63 + 1/63, b: 3/63 + 2/61 + 1/61: equal, though b's float sum is larger.
  const rankings = [["a", "f1", "b"], ["b", "f2", "a"], ["b", "f3", "a"]];
  const weights = [3, 2, 1];
  assert.ok(3 / 63 + 2 / 61 + 1 / 61 > 3 / 61 + 2 / 63 + 1 / 63, "the floats disagree");
  const fused = reciprocalRankFusion(rankings, { weights });
  assert.deepEqual(fused.slice(0, 2).map((item) => item.id), ["a", "b"]);
  assert.equal(fused[0]!.rrf_score, fused[1]!.rrf_score);
});

Deno.test("reciprocalRankFusion() still orders scores that differ by less than rounding exactly", () => {
  // Scores 2^-40 apart fall under the float tolerance: the exact comparison keeps them apart.
  const fused = reciprocalRankFusion([["a"], ["b"]], { k: 0, weights: [1, 1 + 2 ** -40] });
  assert.deepEqual(fused.map((item) => item.id), ["b", "a"]);
});

Deno.test("reciprocalRankFusion() refuses a negative or non-finite k and non-finite weights", () => {
  assert.throws(() => reciprocalRankFusion([["a"]], { k: -1 }), RangeError);
  assert.throws(() => reciprocalRankFusion([["a"]], { k: Infinity }), RangeError);
  assert.throws(() => reciprocalRankFusion([["a"]], { weights: [NaN] }), RangeError);
});

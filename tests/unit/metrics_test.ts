import assert from "node:assert/strict";
import { exactMatch, normalizeAnswer, tokenF1 } from "../../shared/metrics/answer.ts";
import {
  hitAtK,
  mean,
  ndcgAtK,
  precisionAtK,
  reciprocalRankAtK,
  utilityPrecisionRecallF1,
} from "../../shared/metrics/retrieval.ts";

function near(actual: number, expected: number, label = "") {
  assert.ok(Math.abs(actual - expected) <= 1e-12, `${label} expected ${expected}, got ${actual}`);
}

const relevant = new Set(["a", "b"]);

Deno.test("hitAtK(), reciprocalRankAtK() and mean() keep their meaning", () => {
  assert.equal(hitAtK(["x", "b"], relevant, 1), 0);
  assert.equal(hitAtK(["x", "b"], relevant, 2), 1);
  assert.equal(reciprocalRankAtK(["x", "y", "a"], relevant, 5), 1 / 3);
  assert.equal(reciprocalRankAtK(["x", "y", "a"], relevant, 2), 0);
  assert.equal(mean([1, 0, 0.5]), 0.5);
  assert.equal(mean([]), 0);
});

Deno.test("precisionAtK() is the relevant share of the first k, divided by k", () => {
  assert.equal(precisionAtK(["a", "x", "b", "y"], relevant, 2), 0.5);
  assert.equal(precisionAtK(["a", "x", "b", "y"], relevant, 4), 0.5);
  assert.equal(precisionAtK(["a"], relevant, 5), 0.2, "a short list still divides by k");
  assert.equal(precisionAtK([], relevant, 3), 0);
  assert.throws(() => precisionAtK(["a"], relevant, 0), /k: must be a whole number/);
});

Deno.test("ndcgAtK() discounts linear gains by log2(rank + 1) against the ideal order", () => {
  const dcg = 0 / Math.log2(2) + 2 / Math.log2(3) + 1 / Math.log2(4);
  const ideal = 2 / Math.log2(2) + 1 / Math.log2(3) + 0 / Math.log2(4);
  near(ndcgAtK([0, 2, 1], 3), dcg / ideal);
  near(ndcgAtK([2, 1, 0], 3), 1, "the ideal order");
  near(ndcgAtK([0, 2, 1], 1), 0, "nothing relevant at rank 1");
  // With every judged gain, an unretrieved very relevant item lowers the score.
  const withMissed = 2 / Math.log2(2) + 2 / Math.log2(3) + 1 / Math.log2(4);
  near(ndcgAtK([0, 2, 1], 3, [2, 1, 0, 2]), dcg / withMissed);
  assert.equal(ndcgAtK([0, 0], 2), 0, "no relevant item: 0, not NaN");
  assert.throws(() => ndcgAtK([-1], 1), /gains/);
});

Deno.test("utilityPrecisionRecallF1() compares the selected passages with the useful ones", () => {
  const scores = utilityPrecisionRecallF1(new Set(["a", "b"]), new Set(["b", "c", "d"]));
  near(scores.precision, 0.5);
  near(scores.recall, 1 / 3);
  near(scores.f1, 0.4);
  assert.deepEqual(utilityPrecisionRecallF1(new Set([1]), new Set([1])), {
    precision: 1,
    recall: 1,
    f1: 1,
  });
  assert.deepEqual(utilityPrecisionRecallF1(new Set(), new Set(["a"])), {
    precision: 0,
    recall: 0,
    f1: 0,
  });
});

Deno.test("normalizeAnswer() lowercases, drops punctuation and articles, collapses spaces", () => {
  assert.equal(normalizeAnswer("The  Eiffel-Tower!"), "eiffeltower");
  assert.equal(normalizeAnswer("  An apple, a day "), "apple day");
  assert.equal(normalizeAnswer("Theory of another"), "theory of another", "only whole words");
  assert.equal(normalizeAnswer("Café «Über» $5"), "café über 5");
});

Deno.test("exactMatch() compares normalized answers, the best of several golds", () => {
  assert.equal(exactMatch("the Eiffel Tower.", "Eiffel tower"), 1);
  assert.equal(exactMatch("Eiffel Tower in Paris", "Eiffel tower"), 0);
  assert.equal(exactMatch("1889", ["in 1889", "1889"]), 1);
});

Deno.test("tokenF1() is SQuAD's token-overlap F1", () => {
  near(tokenF1("in Paris France", "Paris"), 0.5);
  // prediction "paris paris", gold "paris": one shared token, precision 1/2, recall 1.
  near(tokenF1("Paris, Paris", "the Paris"), 2 / 3);
  near(tokenF1("built in 1889", ["1889", "in 1889"]), 0.8);
  assert.equal(tokenF1("the", "a"), 1, "both empty after normalization");
  assert.equal(tokenF1("", "Paris"), 0);
  assert.equal(tokenF1("London", "Paris"), 0);
});

import assert from "node:assert/strict";
import { rougeL } from "./rouge.ts";

Deno.test("rougeL() is 1 for the same words, whatever the case and punctuation", () => {
  assert.equal(rougeL("Simple cuboidal epithelium.", "simple CUBOIDAL epithelium"), 1);
});

Deno.test("rougeL() scores the longest common subsequence, not shared words in any order", () => {
  // LCS "debuted in 1976" = 3 of 5 words each way: P = R = F1 = 0.6.
  assert.equal(rougeL("The show debuted in 1976.", "Family Feud debuted in 1976."), 0.6);
  // Same words reversed: the LCS is one word.
  assert.equal(rougeL("a b c d", "d c b a"), 0.25);
});

Deno.test("rougeL() weighs precision and recall harmonically", () => {
  // LCS 2; P = 2/2, R = 2/4: F1 = 2/3.
  assert.ok(
    Math.abs(rougeL("bronchioles epithelium", "bronchioles are epithelium tissue") - 2 / 3) < 1e-12,
  );
});

Deno.test("rougeL() is 0 when nothing is shared or one side is empty, 1 when both are", () => {
  assert.equal(rougeL("cats", "dogs"), 0);
  assert.equal(rougeL("", "dogs"), 0);
  assert.equal(rougeL("", ""), 1);
});

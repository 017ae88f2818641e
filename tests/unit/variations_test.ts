import assert from "node:assert/strict";
import { cleanVariations } from "../../functions/fuse/variations.ts";

const QUESTION = "How does rank fusion work?";

Deno.test("cleanVariations() strips list numbering, bullets and wrapping quotes", () => {
  const kept = cleanVariations(
    ["1. rank fusion", "2) reciprocal rank", "- fusion formula", "• combining rankings", '"RRF k"'],
    QUESTION,
    10,
  );
  assert.deepEqual(kept, [
    "rank fusion",
    "reciprocal rank",
    "fusion formula",
    "combining rankings",
    "RRF k",
  ]);
});

Deno.test("cleanVariations() drops the question itself and repeats, case-insensitively", () => {
  const kept = cleanVariations(
    ["how does rank fusion work?", "  HOW DOES RANK FUSION WORK?  ", "rrf", "RRF", "rrf formula"],
    QUESTION,
    10,
  );
  assert.deepEqual(kept, ["rrf", "rrf formula"]);
});

Deno.test("cleanVariations() drops blank, one-character and overlong candidates", () => {
  const kept = cleanVariations(["", "   ", "x", "3.", "ok query", "y".repeat(501)], QUESTION, 10);
  assert.deepEqual(kept, ["ok query"]);
});

Deno.test("cleanVariations() keeps at most `count`, in order", () => {
  assert.deepEqual(cleanVariations(["q one", "q two", "q three"], QUESTION, 2), ["q one", "q two"]);
});

Deno.test({
  name: "cleanVariations() keeps none when count is 0",
  fn() {
    assert.deepEqual(cleanVariations(["q one", "q two"], QUESTION, 0), []);
  },
});

Deno.test({
  name: "cleanVariations() strips wrapping quotes even with spaces around them",
  fn() {
    assert.deepEqual(cleanVariations(['  "rank fusion"  '], QUESTION, 4), ["rank fusion"]);
  },
});

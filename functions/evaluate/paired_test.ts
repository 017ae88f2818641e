import assert from "node:assert/strict";
import { pairedSentence, pairedTests } from "./paired.ts";
import type { QuestionResult } from "./types.ts";

function question(id: string, a: number, b: number, degradedB = false): QuestionResult {
  const similarity = (score: number, degraded = false) => ({ score, reason: "", degraded });
  return {
    id,
    question: id,
    variants: { a: { similarity: similarity(a) }, b: { similarity: similarity(b, degradedB) } },
    games: [],
  };
}

Deno.test("pairedTests() compares two variants over the same questions and leaves degraded ones out", () => {
  const queries = [
    question("q1", 1, 4),
    question("q2", 2, 4),
    question("q3", 1, 3),
    question("q4", 2, 5),
    question("q5", 0, 2),
    question("q6", 3, 0, true),
  ];
  const [test] = pairedTests(["a", "b"], queries);
  assert.ok(test);
  assert.equal(test.metric, "answer_similarity");
  assert.equal(test.n, 5, "the degraded judgment is left out");
  assert.equal(test.mean_difference, 2.4);
  // d = [3, 2, 2, 3, 2]: t = 2.4 / (0.5477 / √5) on 4 df; Wilcoxon all positive with ties,
  // n ≤ 13 → every sign flip (SciPy 1.17): 2 · 1/32 = 0.0625, so five questions cannot show it.
  assert.ok(test.t_test_p! < 0.001);
  assert.equal(test.wilcoxon_p, 0.0625);
  assert.match(
    pairedSentence(test),
    /^b is not shown to beat a on answer similarity by 2\.400 over 5 paired/,
  );
  const even = pairedTests(["a", "b"], [question("q1", 1, 2), question("q2", 2, 1)])[0]!;
  assert.match(pairedSentence(even), /ties a/);
});

import assert from "node:assert/strict";
import { oneTurnRubric } from "../../prompts/rerank-one-turn.ts";
import type { Criterion, Rubric } from "../../shared/rerank/rubric.ts";
import { finalScore, rankJudgments } from "../../shared/rerank/score.ts";
import type { Judgment } from "../../shared/rerank/types.ts";

function criterion(name: string, weight: number): Criterion {
  return { name, definition: `About ${name}.`, high: "Fully.", low: "Not at all.", weight };
}

const RUBRIC: Rubric = {
  criteria: [criterion("depth", 0.5), criterion("recency", 1.5), criterion("evidence", 2)],
  relevance: { definition: "Answers the question." },
  relevance_threshold: 3,
  tie_break: "evidence",
};

function judged(
  index: number,
  relevance: number | undefined,
  criteria: Record<string, number> = {},
  extra: Partial<Judgment> = {},
): { index: number; judgment: Judgment } {
  return { index, judgment: { position: index, relevance, criteria, ...extra } };
}

Deno.test("finalScore is relevance plus the weighted sum of the rubric's criteria", () => {
  const scores = finalScore(
    { position: 0, relevance: 7, criteria: { depth: 3, recency: 4, evidence: 1 } },
    RUBRIC,
  );
  assert.deepEqual(scores, {
    relevance: 7,
    criteria: { depth: 3, recency: 4, evidence: 1 },
    final: 7 + 0.5 * 3 + 1.5 * 4 + 2 * 1,
  });
});

Deno.test("finalScore gives the one-turn rubric's relevance + 0.5 × Σ criteria", () => {
  const criteria = { depth: 1, diversity: 2, clarity: 3, authoritativeness: 4, recency: 5 };
  const scores = finalScore({ position: 0, relevance: 6.3, criteria }, oneTurnRubric);
  assert.equal(scores.final, 6.3 + 0.5 * 15);
});

Deno.test("finalScore recomputes a wrong stated final and ignores criteria the rubric lacks", () => {
  const scores = finalScore(
    { position: 0, relevance: 5, criteria: { depth: 2, flavour: 5 }, statedFinal: 99 },
    RUBRIC,
  );
  // Missing recency and evidence count as 0; flavour has no weight.
  assert.equal(scores.final, 5 + 0.5 * 2);
});

Deno.test("finalScore keeps the stated final, with relevance null, when the breakdown is unknown", () => {
  assert.deepEqual(
    finalScore({ position: 0, relevance: undefined, criteria: {}, statedFinal: 12.5 }, RUBRIC),
    { relevance: null, criteria: {}, final: 12.5 },
  );
});

Deno.test("rankJudgments discards relevance below the threshold, with the reason, and keeps the threshold itself", () => {
  const { kept, discarded } = rankJudgments([
    judged(0, 2.9, { depth: 5, recency: 5, evidence: 5 }),
    judged(1, 3),
    judged(2, 8),
    judged(3, 0),
  ], RUBRIC);
  assert.deepEqual(kept.map((k) => k.index), [2, 1]);
  assert.deepEqual(discarded.map((d) => d.index), [0, 3]);
  for (const entry of discarded) {
    assert.match(entry.reason, /relevance \d+(\.\d+)? is below the threshold 3/);
  }
  assert.match(discarded[0]!.reason, /2\.9/);
});

Deno.test("rankJudgments never discards a text-mode line whose relevance is unknown", () => {
  const { kept, discarded } = rankJudgments([
    judged(0, undefined, {}, { statedFinal: 1 }),
    judged(1, undefined, {}, { statedFinal: 2 }),
  ], RUBRIC);
  assert.deepEqual(kept.map((k) => [k.index, k.scores.final]), [[1, 2], [0, 1]]);
  assert.deepEqual(discarded, []);
});

Deno.test("rankJudgments sorts by final score, descending", () => {
  const { kept } = rankJudgments([
    judged(0, 4),
    judged(1, 9, { depth: 1 }),
    judged(2, 6, { evidence: 2 }),
    judged(3, 9.5),
  ], RUBRIC);
  assert.deepEqual(kept.map((k) => [k.index, k.scores.final]), [[2, 10], [1, 9.5], [3, 9.5], [
    0,
    4,
  ]]);
});

Deno.test("rankJudgments breaks a tie on final score by the tie criterion, then the earlier index", () => {
  // All four end at 10: index 3 and 1 have evidence 1, index 2 and 0 have none.
  const { kept } = rankJudgments([
    judged(3, 8, { evidence: 1 }),
    judged(2, 8, { recency: 4 / 3 }),
    judged(1, 8, { evidence: 1 }),
    judged(0, 10),
  ], RUBRIC);
  assert.deepEqual(kept.map((k) => k.index), [1, 3, 0, 2]);
  for (const entry of kept) assert.equal(entry.scores.final, 10);
});

Deno.test("rankJudgments with tie_break retrieval_rank puts the earlier index first", () => {
  const rubric: Rubric = { ...RUBRIC, tie_break: "retrieval_rank" };
  const { kept } = rankJudgments([
    judged(5, 7, { evidence: 0 }),
    judged(2, 3, { evidence: 2 }),
    judged(4, 5, { evidence: 1 }),
  ], rubric);
  assert.deepEqual(kept.map((k) => k.index), [2, 4, 5]);
});

Deno.test("rankJudgments carries each document's reason", () => {
  const { kept } = rankJudgments([
    judged(0, 6, {}, { reason: "States the figures." }),
    judged(1, 7),
  ], RUBRIC);
  assert.deepEqual(kept.map((k) => k.reason), [undefined, "States the figures."]);
});

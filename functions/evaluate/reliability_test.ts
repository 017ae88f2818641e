import assert from "node:assert/strict";
import { reliabilityOf } from "./reliability.ts";
import type { QuestionResult, VariantRun } from "./types.ts";

function question(id: string, run: Partial<VariantRun>, similarity: number | null): QuestionResult {
  return {
    id,
    query: `question ${id}`,
    variants: {
      v: {
        run: run as VariantRun,
        similarity: { score: similarity, reason: "", degraded: similarity === null },
      },
    },
    games: [],
  } as unknown as QuestionResult;
}

Deno.test("reliabilityOf() counts every step's unreadable replies, rerank (ITEM, ToT) included, in the degraded share", () => {
  const readings = (rerank: [number, number], variations: [number, number]) => ({
    rerank: { asked: rerank[0], unreadable: rerank[1] },
    rubric: { asked: 0, unreadable: 0 },
    variations: { asked: variations[0], unreadable: variations[1] },
  });
  const reliability = reliabilityOf("v", [
    question("q1", { readings: readings([10, 2], [1, 0]) }, 4),
    question("q2", { readings: readings([10, 1], [1, 1]) }, null),
  ]);
  assert.deepEqual(reliability.steps, {
    rerank: { judged: 20, excluded: 3 },
    rubric: { judged: 0, excluded: 0 },
    variations: { judged: 2, excluded: 1 },
  });
  assert.deepEqual(reliability.judges.similarity, { judged: 2, excluded: 1 });
  // (3 + 1 + 1) left unread of (20 + 2 + 2) asked.
  assert.equal(reliability.degraded_share, 5 / 24);
});

import assert from "node:assert/strict";
import { oneTurnRubric } from "../../prompts/rerank-one-turn.ts";
import { readJudgments } from "../../shared/rerank/parse.ts";
import type { Criterion } from "../../shared/rerank/rubric.ts";
import type { Judgment } from "../../shared/rerank/types.ts";
import {
  oneTurnReplies,
  type ReadJudgments,
  relevanceReplies,
  TWO_TURN_CRITERIA,
  twoTurnReplies,
} from "./reply-corpus/rerank-judgments.ts";
import type { CorpusReply } from "./reply-corpus/types.ts";

/** What the reader took, in the corpus's terms. */
function asRead(judgments: readonly Judgment[]): ReadJudgments {
  return Object.fromEntries(judgments.map((judgment) => {
    if (judgment.unreadable) return [judgment.position + 1, "unreadable"];
    const breakdown = Object.keys(judgment.criteria).length > 0;
    return [judgment.position + 1, {
      final: judgment.statedFinal ?? judgment.relevance!,
      ...(breakdown || judgment.statedFinal === undefined
        ? { relevance: judgment.relevance! }
        : {}),
      ...(breakdown ? { criteria: judgment.criteria } : {}),
    }];
  }));
}

function corpusTest(
  parser: string,
  corpus: readonly CorpusReply<ReadJudgments>[],
  criteria: readonly Criterion[],
  batchSize: number,
) {
  Deno.test(`${parser}: reads each of ${corpus.length} realistic replies as a person would`, () => {
    assert.ok(corpus.length >= 10);
    for (const { style, reply, expected } of corpus) {
      assert.deepEqual(
        asRead(readJudgments(reply, batchSize, criteria)),
        expected,
        `${style}: ${JSON.stringify(reply)}`,
      );
    }
  });
}

corpusTest("relevance baseline", relevanceReplies, [], 4);
corpusTest("one-turn scores", oneTurnReplies, oneTurnRubric.criteria, 3);
corpusTest("two-turn scores", twoTurnReplies, TWO_TURN_CRITERIA, 3);

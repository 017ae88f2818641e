import assert from "node:assert/strict";
import { readAnswerReply } from "../../functions/judge/answer.ts";
import { readPairwiseReply } from "../../functions/judge/pairwise.ts";
import { readRetrievalReply } from "../../functions/judge/retrieval.ts";
import { readSimilarityReply } from "../../functions/judge/similarity.ts";
import { answerJudgeReplies } from "./reply-corpus/answer-judge.ts";
import { pairwiseJudgeReplies } from "./reply-corpus/pairwise-judge.ts";
import { retrievalJudgeReplies } from "./reply-corpus/retrieval-judge.ts";
import { similarityJudgeReplies } from "./reply-corpus/similarity-judge.ts";
import type { CorpusReply } from "./reply-corpus/types.ts";

function corpusTest<T>(
  parser: string,
  corpus: readonly CorpusReply<T>[],
  read: (reply: string) => T | undefined,
) {
  Deno.test(`${parser}: reads each of ${corpus.length} realistic replies as a person would`, () => {
    assert.ok(corpus.length >= 10, "at least ten replies per parser");
    for (const { style, reply, expected } of corpus) {
      assert.deepEqual(read(reply) ?? null, expected, `${style}: ${JSON.stringify(reply)}`);
    }
  });
}

corpusTest(
  "retrieval judge",
  retrievalJudgeReplies,
  (reply) => readRetrievalReply(reply, undefined)?.score,
);
corpusTest(
  "similarity judge",
  similarityJudgeReplies,
  (reply) => readSimilarityReply(reply, undefined)?.score,
);
corpusTest(
  "pairwise judge",
  pairwiseJudgeReplies,
  (reply) => readPairwiseReply(reply, undefined).verdict,
);
corpusTest("answer judge", answerJudgeReplies, (reply) => readAnswerReply(reply)?.scores);

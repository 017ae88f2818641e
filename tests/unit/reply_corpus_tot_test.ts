import assert from "node:assert/strict";
import { parseDimensions, parseScore, parseThresholds } from "../../functions/rerank/tot/parse.ts";
import { SIMILARITY_DIMENSIONS } from "../../shared/rerank/tot/dimensions.ts";
import { totAgentReplies, totScoreReplies, totThresholdReplies } from "./reply-corpus/tot.ts";
import type { CorpusReply } from "./reply-corpus/types.ts";

function corpusTest<T>(
  parser: string,
  corpus: readonly CorpusReply<T>[],
  read: (reply: string) => T | undefined,
) {
  Deno.test(`${parser}: reads each of ${corpus.length} realistic replies as a person would`, () => {
    assert.ok(corpus.length >= 10);
    for (const { style, reply, expected } of corpus) {
      const value = read(reply) ?? null;
      if (typeof expected === "number" && typeof value === "number") {
        assert.ok(Math.abs(value - expected) < 1e-9, `${style}: ${value} for ${reply}`);
      } else {
        assert.deepEqual(value, expected, `${style}: ${JSON.stringify(reply)}`);
      }
    }
  });
}

corpusTest("ToT score", totScoreReplies, parseScore);
corpusTest(
  "ToT agent choice",
  totAgentReplies,
  (reply) => parseDimensions(reply, SIMILARITY_DIMENSIONS),
);
corpusTest(
  "ToT thresholds",
  totThresholdReplies,
  (reply) => parseThresholds(reply, ["lexical", "semantic"]),
);

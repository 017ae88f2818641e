import assert from "node:assert/strict";
import {
  readRankingReply,
  readSelectionReply,
  readVerdict,
} from "../../functions/rerank/item/read.ts";
import { pointwiseReplies, rankingReplies, selectionReplies } from "./reply-corpus/item.ts";
import type { CorpusReply } from "./reply-corpus/types.ts";

function corpusTest<T>(
  parser: string,
  corpus: readonly CorpusReply<T>[],
  read: (reply: string) => T | undefined,
) {
  Deno.test(`${parser}: reads each of ${corpus.length} realistic replies as a person would`, () => {
    assert.ok(corpus.length >= 10);
    for (const { style, reply, expected } of corpus) {
      assert.deepEqual(read(reply) ?? null, expected, `${style}: ${JSON.stringify(reply)}`);
    }
  });
}

/** The ranking's identifiers as written: the reader's 0-based positions, the appended ones cut. */
corpusTest("RankGPT-style ranking", rankingReplies, (reply) => {
  const positions = readRankingReply(reply, 4);
  if (!positions) return undefined;
  const written = rankingReplies.find((entry) => entry.reply === reply)!.expected ?? [];
  return positions.slice(0, written.length || positions.length).map((position) => position + 1);
});
corpusTest(
  "ITEM selection",
  selectionReplies,
  (reply) => readSelectionReply(reply, 5)?.map((position) => position + 1),
);
corpusTest("ITEM pointwise judgment", pointwiseReplies, readVerdict);

Deno.test("RankGPT-style ranking: the passages left out are appended in their shown order", () => {
  assert.deepEqual(readRankingReply("[2] > [2] > [9] > [1]", 4), [1, 0, 2, 3]);
});

import assert from "node:assert/strict";
import { readQuestions } from "../../functions/judge/read-questions.ts";
import { cleanQuestions } from "../../functions/judge/synthetic.ts";
import { syntheticQueryReplies } from "./reply-corpus/synthetic-queries.ts";

Deno.test(`synthetic queries: reads each of ${syntheticQueryReplies.length} realistic replies as a person would`, () => {
  assert.ok(syntheticQueryReplies.length >= 10);
  for (const { style, reply, expected } of syntheticQueryReplies) {
    assert.deepEqual(
      cleanQuestions(readQuestions(reply)),
      expected,
      `${style}: ${JSON.stringify(reply)}`,
    );
  }
});

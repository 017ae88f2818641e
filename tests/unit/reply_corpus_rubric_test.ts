import assert from "node:assert/strict";
import { readRubricDraft } from "../../shared/rerank/read-rubric.ts";
import { repairRubric } from "../../shared/rerank/rubric.ts";
import { type ReadRubric, rubricReplies } from "./reply-corpus/rubric.ts";

function asRead(reply: string): ReadRubric | null {
  const draft = readRubricDraft(reply);
  const repaired = draft && repairRubric(draft, { allowEmpty: false });
  if (!repaired) return null;
  return {
    criteria: repaired.rubric.criteria.map((criterion) => [criterion.name, criterion.weight]),
    threshold: repaired.rubric.relevance_threshold,
  };
}

Deno.test(`rubric: reads each of ${rubricReplies.length} realistic replies as a person would`, () => {
  assert.ok(rubricReplies.length >= 10);
  for (const { style, reply, expected } of rubricReplies) {
    assert.deepEqual(asRead(reply), expected, `${style}: ${JSON.stringify(reply)}`);
  }
});

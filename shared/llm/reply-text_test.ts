import assert from "node:assert/strict";
import { completeFieldsOfCutObject } from "./json.ts";
import { isRefusal, lastRevisionAt, normalizeReply, withoutQuotedText } from "./reply-text.ts";

Deno.test("normalizeReply() maps fullwidth and Arabic-Indic digits and curly quotes to ASCII", () => {
  assert.equal(normalizeReply("Score: ２ — ٤ and ۳"), "Score: 2 — 4 and 3");
  assert.equal(normalizeReply("Assistant B’s “answer”"), `Assistant B's "answer"`);
  assert.equal(normalizeReply("Sc\u200Bore: 1"), "Score: 1");
});

Deno.test("isRefusal() is a first-person decline at the opening, not a judgment that says cannot", () => {
  for (
    const refusal of [
      "I'm sorry, but I can't assist with that.",
      "I apologize, but I am unable to generate alternative queries.",
      "As an AI language model, I cannot help with that.",
      "Sorry — I won't write search queries on this subject.",
      "I'm unable to compare these answers. Score: 0",
      "Unfortunately, I can't rank these passages.",
    ]
  ) assert.ok(isRefusal(refusal), refusal);
  for (
    const judgment of [
      "I'm sorry, but the passage is off-topic. Score: 0",
      "Unfortunately, the document cannot answer the question. Score: 0",
      "I'm sorry for the wait! Here are three queries:\n1. rrf",
      "I can't say it is fully relevant, but it helps. Score: 1",
    ]
  ) assert.ok(!isRefusal(judgment), judgment);
});

Deno.test("withoutQuotedText() sets aside quoted phrases and keeps a quoted token", () => {
  assert.equal(
    withoutQuotedText('It says "Score: 2" but is off-topic. Score: "0"'),
    'It says "…" but is off-topic. Score: "0"',
  );
});

Deno.test("lastRevisionAt() finds the last phrase that takes back a verdict", () => {
  const text = "Score: 2 — actually no, on reflection it misses a step, so 1.";
  assert.equal(text.slice(lastRevisionAt(text)).startsWith("on reflection"), true);
  assert.equal(lastRevisionAt("Score: 2. It answers fully."), -1);
});

Deno.test("completeFieldsOfCutObject() reads only the fields a cut-off object completed", () => {
  assert.deepEqual(completeFieldsOfCutObject('{"score": 2, "reason": "The passage'), { score: 2 });
  assert.deepEqual(completeFieldsOfCutObject('{"reason": "On topic", "score": '), {
    reason: "On topic",
  });
  assert.deepEqual(completeFieldsOfCutObject('{"a": ["x", 1], "verdict": "B", "r": "x'), {
    a: "…",
    verdict: "B",
  });
  assert.equal(
    completeFieldsOfCutObject('{"score": 2}'),
    undefined,
    "a whole object is read whole",
  );
});

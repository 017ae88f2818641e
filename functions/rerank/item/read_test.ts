import assert from "node:assert/strict";
import { readAnswer, readRankingReply, readSelectionReply, readVerdict } from "./read.ts";

Deno.test("readAnswer() takes the JSON answer, else the trimmed text, and nothing from an empty reply", () => {
  assert.equal(readAnswer('{"answer": "In 1976."}'), "In 1976.");
  assert.equal(
    readAnswer("  Necessary information: the year.\n"),
    "Necessary information: the year.",
  );
  assert.equal(readAnswer(""), undefined);
  assert.equal(readAnswer('{"answer": "  "}'), undefined);
  assert.equal(readAnswer("x".repeat(5000))?.length, 2000);
});

Deno.test("readRankingReply() reads the JSON ranking with the text rules, appending the missing", () => {
  assert.deepEqual(readRankingReply('{"ranking": [3, 3, 9, 1]}', 4), [2, 0, 1, 3]);
  // A provider that ignores json_schema and writes the text form still counts.
  assert.deepEqual(readRankingReply("[2] > [1]", 3), [1, 0, 2]);
  assert.equal(readRankingReply('{"ranking": [0, 7]}', 3), undefined);
  assert.equal(readRankingReply('{"ranking": "first"}', 3), undefined);
});

Deno.test("readSelectionReply() tells an empty JSON list (none) from a list of bad numbers (unusable)", () => {
  assert.deepEqual(readSelectionReply('{"useful": [2, 5, 2]}', 3), [1]);
  assert.deepEqual(readSelectionReply('{"useful": []}', 3), []);
  assert.equal(readSelectionReply('{"useful": [0, 9]}', 3), undefined);
  assert.deepEqual(readSelectionReply("None", 3), []);
  assert.equal(readSelectionReply("", 3), undefined);
});

Deno.test("readVerdict() reads JSON, the labelled line, or a leading yes or no, and nothing else", () => {
  assert.equal(readVerdict('{"useful": true}'), true);
  assert.equal(readVerdict("Useful: no"), false);
  assert.equal(readVerdict("**Useful:** yes, it states the year."), true);
  assert.equal(readVerdict("Yes, the passage has utility."), true);
  assert.equal(readVerdict("No."), false);
  assert.equal(readVerdict("There is no doubt it helps."), undefined);
  assert.equal(readVerdict(""), undefined);
});

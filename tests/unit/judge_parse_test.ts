import assert from "node:assert/strict";
import { z } from "zod";
import { readAnswerReply } from "../../functions/judge/answer.ts";
import { combineVerdicts, readPairwiseReply } from "../../functions/judge/pairwise.ts";
import {
  clampGrade,
  lastJsonObject,
  parseGrade,
  parseVerdictToken,
  parseVerdictValue,
  swapVerdict,
  withoutScoreLines,
} from "../../functions/judge/parse.ts";
import { readRetrievalReply } from "../../functions/judge/retrieval.ts";
import { readSimilarityReply } from "../../functions/judge/similarity.ts";
import { readScore } from "../../shared/llm/read-score.ts";

const parseScoreLine = (text: string, max: number) => readScore(text, { max, integer: true });

Deno.test("parseVerdictToken() takes the last token: an [[A]] quoted in the reasoning loses to a final [[B]]", () => {
  const reply = 'The format asks for "[[A]]" if A is better. A cites more, but [[A]] misreads ' +
    "document 2, while B states it correctly.\n\nFinal verdict: [[B]]";
  assert.equal(parseVerdictToken(reply), "B");
});

Deno.test("parseVerdictToken() reads [[C]], tolerates spaces and case, and finds none in prose", () => {
  assert.equal(parseVerdictToken("A tie. [[C]]"), "C");
  assert.equal(parseVerdictToken("Verdict: [[ b ]]"), "B");
  assert.equal(parseVerdictToken("Assistant A is better. Verdict: A"), undefined);
  assert.equal(parseVerdictToken("[A] or [[D]] or [[AB]]"), undefined);
  assert.equal(parseVerdictToken(""), undefined);
});

Deno.test("parseVerdictValue() accepts A/B/C in common spellings and nothing else", () => {
  assert.equal(parseVerdictValue("A"), "A");
  assert.equal(parseVerdictValue(" b "), "B");
  assert.equal(parseVerdictValue("[[C]]"), "C");
  assert.equal(parseVerdictValue("Assistant B"), "B");
  for (const bad of ["D", "AB", "tie", "", 1, null, undefined, ["A"]]) {
    assert.equal(parseVerdictValue(bad), undefined, String(bad));
  }
});

Deno.test("swapVerdict() maps the swapped game back to the original labels; a tie stays a tie", () => {
  assert.deepEqual(["A", "B", "C"].map((v) => swapVerdict(v as "A")), ["B", "A", "C"]);
});

Deno.test("combineVerdicts(): the same winner twice wins, anything else is a tie", () => {
  assert.deepEqual(combineVerdicts("A", "A"), { winner: "A", orders_disagree: false });
  assert.deepEqual(combineVerdicts("B", "B"), { winner: "B", orders_disagree: false });
  assert.deepEqual(combineVerdicts("C", "C"), { winner: "C", orders_disagree: false });
  assert.deepEqual(combineVerdicts("A", "B"), { winner: "C", orders_disagree: true });
  assert.deepEqual(combineVerdicts("A", "C"), { winner: "C", orders_disagree: true });
});

Deno.test("readPairwiseReply() prefers a structured verdict and falls back to the text token", () => {
  assert.deepEqual(readPairwiseReply('{"verdict":"B"}', { verdict: "B", reasoning: " why " }), {
    verdict: "B",
    reasoning: "why",
    revised: false,
  });
  assert.equal(readPairwiseReply("B wins [[B]]", { verdict: "maybe" }).verdict, "B");
  assert.equal(readPairwiseReply("no verdict at all", undefined).verdict, undefined);
});

Deno.test("readScore(): the last valid score line wins", () => {
  assert.equal(parseScoreLine("Score: 1\nOn reflection it answers fully.\nScore: 2", 2), 2);
  assert.equal(parseScoreLine("It is on topic.\nScore: 1", 2), 1);
});

Deno.test("readScore() skips invalid lines so an earlier valid one stands", () => {
  assert.equal(parseScoreLine("Score: 2\nScore: 3", 2), 2, "3 is out of range");
  assert.equal(parseScoreLine("Score: 1\nScore: 1.5", 2), 1, "no fractions");
  assert.equal(parseScoreLine("Score: 2\nScore: high", 2), 2);
  assert.equal(parseScoreLine("Score: 1\nScore: 4/5", 2), 1, "another scale is not ours");
  assert.equal(parseScoreLine("Score: -1", 2), undefined);
});

Deno.test("readScore() reads markdown, labels and fractions of its own scale", () => {
  assert.equal(parseScoreLine("**Score:** 2", 2), 2);
  assert.equal(parseScoreLine("Final score: **1**.", 2), 1);
  assert.equal(parseScoreLine("- Relevance score = 0", 2), 0);
  assert.equal(parseScoreLine("Score: 2/2", 2), 2);
  assert.equal(parseScoreLine("Score: 2.0", 2), 2);
  assert.equal(parseScoreLine("Score: 5", 5), 5);
});

Deno.test("readScore() reads no negated score, and no document line as the score", () => {
  assert.equal(parseScoreLine("I would not give it a score: 2 because it is vague.", 2), undefined);
  assert.equal(parseScoreLine("The document scores well.\nDoc: 2, Relevance: 2", 2), undefined);
});

Deno.test("withoutScoreLines() leaves the reason, without a 'Reason:' label", () => {
  assert.equal(
    withoutScoreLines("Reason: It states the formula.\nScore: 2"),
    "It states the formula.",
  );
});

Deno.test("readRetrievalReply() takes structured fields, else the text format; out-of-range is none", () => {
  assert.deepEqual(readRetrievalReply("", { reason: "On topic.", score: 1 }), {
    score: 1,
    reason: "On topic.",
  });
  assert.deepEqual(readRetrievalReply("It answers\nthe question.\nScore: 2", undefined), {
    score: 2,
    reason: "It answers the question.",
  });
  assert.deepEqual(readRetrievalReply("Fine.\nScore: 1", { score: 7 }), {
    score: 1,
    reason: "Fine.",
  });
  assert.equal(readRetrievalReply("", { reason: "x", score: 3 }), undefined);
  assert.equal(readRetrievalReply("Very relevant!", undefined)?.score, 2, "a grade in words");
  assert.equal(readRetrievalReply("It is relevant, I think.", undefined), undefined);
});

Deno.test("parseGrade() accepts whole numbers in range only; clampGrade() rounds and clamps", () => {
  assert.equal(parseGrade(2, 2), 2);
  assert.equal(parseGrade("1", 2), 1);
  for (const bad of [3, -1, 1.5, "", "two", null, undefined, Number.NaN]) {
    assert.equal(parseGrade(bad, 2), undefined, String(bad));
  }
  assert.equal(clampGrade(1.6, 2), 2);
  assert.equal(clampGrade(1.4, 2), 1);
  assert.equal(clampGrade(7, 2), 2);
  assert.equal(clampGrade(-3, 2), 0);
  assert.equal(clampGrade("2", 2), 2);
  for (const bad of ["high", "", null, undefined, Number.POSITIVE_INFINITY, {}]) {
    assert.equal(clampGrade(bad, 2), undefined, String(bad));
  }
});

const pair = z.object({ a: z.number(), b: z.number() });

Deno.test("lastJsonObject() returns the last object that fits, and where it starts", () => {
  const text = 'Example: {"a": 0, "b": 0}\nThinking...\n{"a": 1, "b": 2}';
  assert.deepEqual(lastJsonObject(text, pair), {
    value: { a: 1, b: 2 },
    start: text.lastIndexOf("{"),
  });
});

Deno.test("lastJsonObject() skips a later object that does not fit, and broken JSON", () => {
  assert.deepEqual(lastJsonObject('{"a": 1, "b": 2}\n{"a": 3}', pair)?.value, { a: 1, b: 2 });
  assert.deepEqual(lastJsonObject('{"a": 1, "b": 2} then {"a": 3, "b":', pair)?.value, {
    a: 1,
    b: 2,
  });
  assert.equal(lastJsonObject("no json here", pair), undefined);
});

Deno.test("lastJsonObject() reads an outer object when only a nested one comes after it", () => {
  const text = '{"a": 1, "b": 2, "extra": {"note": "x"}}';
  assert.deepEqual(lastJsonObject(text, pair)?.value, { a: 1, b: 2 });
});

Deno.test("readAnswerReply() reads the JSON last line and keeps the reasoning before it; never clamps", () => {
  const reply = 'The user wants the k constant.\nThe answer gives it: {"k": 60}.\n' +
    '{"relevance": 2, "accuracy": 2, "completeness": 1, "precision": 0}';
  const read = readAnswerReply(reply);
  assert.deepEqual(read?.scores, { relevance: 2, accuracy: 2, completeness: 1, precision: 0 });
  assert.equal(read?.reasoning, 'The user wants the k constant.\nThe answer gives it: {"k": 60}.');
  const offScale = '{"relevance": 2, "accuracy": 2.4, "completeness": 5, "precision": -1}';
  assert.equal(readAnswerReply(offScale), undefined, "off 0-2 is unreadable, not clamped");
});

Deno.test("readAnswerReply() takes a revised score's last value and says it was revised", () => {
  const read = readAnswerReply(
    "Relevance: 2\nAccuracy: 2 — on reflection the date is wrong, so 1\nCompleteness: 2\nPrecision: 2",
  );
  assert.deepEqual(read?.scores, { relevance: 2, accuracy: 1, completeness: 2, precision: 2 });
  assert.equal(read?.revised, true);
});

Deno.test("readAnswerReply() uses the last object with all four keys; a structured reply's reasoning field", () => {
  const reply = 'Draft: {"relevance": 0, "accuracy": 0, "completeness": 0, "precision": 0}\n' +
    'Final: {"relevance": 1, "accuracy": "2", "completeness": 1, "precision": 2}\n{"note": 1}';
  assert.deepEqual(readAnswerReply(reply)?.scores, {
    relevance: 1,
    accuracy: 2,
    completeness: 1,
    precision: 2,
  });
  const structured = readAnswerReply(
    '{"reasoning": "Good.", "relevance": 2, "accuracy": 2, "completeness": 1, "precision": 2}',
  );
  assert.equal(structured?.reasoning, "Good.");
});

Deno.test("readAnswerReply() gives none when a key is missing or not a number", () => {
  assert.equal(readAnswerReply('{"relevance": 2, "accuracy": 2, "completeness": 2}'), undefined);
  assert.equal(
    readAnswerReply('{"relevance": 2, "accuracy": "high", "completeness": 2, "precision": 2}'),
    undefined,
  );
});

Deno.test("readSimilarityReply() accepts 0-5, decimals too, in either mode", () => {
  assert.deepEqual(readSimilarityReply("Same meaning.\nScore: 5", undefined), {
    score: 5,
    reason: "Same meaning.",
  });
  assert.deepEqual(readSimilarityReply("", { reason: "Close.", score: 4 }), {
    score: 4,
    reason: "Close.",
  });
  assert.equal(readSimilarityReply("Score: 6", undefined), undefined);
  assert.equal(readSimilarityReply("", { score: 3.5 })?.score, 3.5);
  assert.equal(readSimilarityReply("", { score: 7 }), undefined);
});

Deno.test("judges record revised: true when a reply changed its verdict, and the last one stands", () => {
  const retrieval = readRetrievalReply(
    "Score: 2 — actually no, on reflection it does not fully answer the question, so 1.",
    undefined,
  );
  assert.equal(retrieval?.score, 1);
  assert.equal(retrieval?.revised, true);
  assert.equal(readRetrievalReply("Score: 1", undefined)?.revised, undefined);
  const pairwise = readPairwiseReply(
    "Verdict: A is better.\n\nOn reflection, though, Assistant B wins.",
    undefined,
  );
  assert.deepEqual([pairwise.verdict, pairwise.revised], ["B", true]);
  const unsettled = readRetrievalReply("Score: 2 — wait, I am not sure any more.", undefined);
  assert.equal(unsettled, undefined, "a revision with no value after it is unreadable");
});

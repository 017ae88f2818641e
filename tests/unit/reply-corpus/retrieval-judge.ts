import type { CorpusReply } from "./types.ts";

/** RAGElo's 0/1/2 retrieval judge in plain-text mode, as GPT-4o-mini, Llama 3 and Qwen reply. */
export const retrievalJudgeReplies: CorpusReply<0 | 1 | 2>[] = [
  { style: "the format", reply: "The document states the formula.\nScore: 2", expected: 2 },
  {
    style: "markdown emphasis on a relevance label",
    reply: "The passage discusses the topic but not the question.\n\n**Relevance:** 1",
    expected: 1,
  },
  {
    style: "score with a gloss",
    reply: "It answers the question directly.\nScore: 2 (very relevant)",
    expected: 2,
  },
  {
    style: "fenced JSON",
    reply: '```json\n{"reason": "Off topic: about cooking.", "score": 0}\n```',
    expected: 0,
  },
  { style: "fraction of its own scale", reply: "On topic, partial.\n**Score: 1/2**", expected: 1 },
  { style: "bare number", reply: "2", expected: 2 },
  {
    style: "grade in words",
    reply: "Reason: it is on topic but never gives the date.\nRelevance: Somewhat relevant",
    expected: 1,
  },
  { style: "number word", reply: "The text is unrelated.\nFinal score: zero", expected: 0 },
  {
    style: "prose grade",
    reply: "The document covers exactly what was asked, so I would give it a 2.",
    expected: 2,
  },
  {
    style: "markdown table",
    reply: "| Criterion | Value |\n|---|---|\n| Score | 1 |",
    expected: 1,
  },
  {
    style: "revised score: the last line stands",
    reply: "Score: 1\nOn reflection the second paragraph answers it fully.\nScore: 2",
    expected: 2,
  },
  { style: "heading and bold value", reply: "### Final Score\n\n### Score: **0**", expected: 0 },
  { style: "out of range", reply: "Very useful document.\nScore: 7", expected: null },
  { style: "no score at all", reply: "The document is about the topic.", expected: null },
  {
    style: "negated prose",
    reply: "I would not give it a 2 since it is vague, nor a 0.",
    expected: null,
  },
  {
    style: "two scores in prose",
    reply: "I could rate it a 1 or rate it a 2 depending on the reader.",
    expected: null,
  },
  { style: "a decimal on a whole scale", reply: "Score: 1.5", expected: null },
];

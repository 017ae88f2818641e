import type { CorpusReply } from "./types.ts";

/** REBEL's 0-5 answer similarity in plain-text mode. */
export const similarityJudgeReplies: CorpusReply<number>[] = [
  { style: "the format", reply: "Same meaning, fewer details.\nScore: 4", expected: 4 },
  { style: "out of", reply: "The answer matches most of the reference: 4 out of 5.", expected: 4 },
  { style: "half point", reply: "Nearly identical.\nScore: 4.5", expected: 4.5 },
  { style: "labelled fraction", reply: "**Similarity:** 3/5", expected: 3 },
  { style: "another scale converts", reply: "Rating: 8/10", expected: 4 },
  {
    style: "fenced JSON with a string score",
    reply: '```json\n{"reason": "Partly overlapping.", "score": "2"}\n```',
    expected: 2,
  },
  {
    style: "stated scale",
    reply: "On a scale from 0 to 10, I'd rate this answer 6.",
    expected: 3,
  },
  { style: "decimal comma", reply: "Score: 3,5", expected: 3.5 },
  { style: "bare bold number", reply: "**5**", expected: 5 },
  {
    style: "prose score of",
    reply: "The answer contradicts the reference, so it gets a score of 1.",
    expected: 1,
  },
  { style: "table row", reply: "| Similarity score | 2 |", expected: 2 },
  { style: "words", reply: "Similarity score: three", expected: 3 },
  { style: "out of range", reply: "Score: 6", expected: null },
  { style: "no number", reply: "The answers are quite similar.", expected: null },
  {
    style: "two different values in prose",
    reply: "It deserves a 3, though some would rate it 4 out of 5.",
    expected: null,
  },
];

import type { Verdict } from "../../../shared/judge/types.ts";
import type { CorpusReply } from "./types.ts";

/** RAGElo's pairwise judge in plain-text mode: C is a tie. */
export const pairwiseJudgeReplies: CorpusReply<Verdict>[] = [
  { style: "the format", reply: "A cites its sources; B does not.\n[[A]]", expected: "A" },
  {
    style: "format quoted, then the verdict",
    reply: "I must output [[A]] if A is better. B is more complete.\n[[B]]",
    expected: "B",
  },
  { style: "prose verdict", reply: "Assistant A is better.", expected: "A" },
  { style: "final verdict line", reply: "Both are grounded.\nFinal verdict: A", expected: "A" },
  {
    style: "bold verdict naming the assistant",
    reply: "**Verdict:** Assistant B",
    expected: "B",
  },
  { style: "tie in prose", reply: "Both answers are equally good.", expected: "C" },
  { style: "tie label", reply: "Final verdict: tie", expected: "C" },
  { style: "bare letter", reply: "B", expected: "B" },
  {
    style: "fenced JSON",
    reply: '```json\n{"reasoning": "B misses the date.", "verdict": "A"}\n```',
    expected: "A",
  },
  {
    style: "prose: B wins",
    reply: "A rambles and never answers. Assistant B wins.",
    expected: "B",
  },
  {
    style: "I prefer",
    reply: "Considering accuracy and completeness, I prefer Answer A.",
    expected: "A",
  },
  {
    style: "a verdict revised on second thought: the last wins (issue #32)",
    reply: "Final verdict: A\n\nOn second thought the dates matter more.\nFinal verdict: B",
    expected: "B",
  },
  {
    style: "two labelled verdicts with no revision",
    reply: "Verdict: A\nVerdict: B",
    expected: null,
  },
  {
    style: "two prose verdicts",
    reply: "Assistant A is better at citing, but Assistant B is better overall.",
    expected: null,
  },
  { style: "no verdict", reply: "Both answers discuss the topic at length.", expected: null },
  {
    style: "a cited [1] in prose is no verdict",
    reply: "Answer A cites [1] and answer B cites [2].",
    expected: null,
  },
];

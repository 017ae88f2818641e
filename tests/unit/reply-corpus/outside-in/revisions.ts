/**
 * HELD OUT (issue #42). Revisions as people write them, without a label:
 * "…I'd lower that to 0", "make it a 1", a note after a JSON verdict that
 * corrects one field; and conditional or hypothetical verdicts ("if the user
 * cared about X, [[A]] would be better") that never override a stated one.
 * Written before the readers changed; never tuned on.
 */
import type { ScoredReply } from "../score.ts";

export const revisionReplies: ScoredReply[] = [
  // ── unlabelled revisions in prose ──
  {
    category: "prose revision",
    reader: "retrieval",
    reply:
      "Score: 2\n\nThe passage is about the 2019 release, though, and the question asks about 2023, so I'd lower that to 0.",
    expected: 0,
  },
  {
    category: "prose revision",
    reader: "retrieval",
    reply:
      "Relevance: 2. On balance it only touches the topic in one sentence, which should make it a 1.",
    expected: 1,
  },
  {
    category: "prose revision",
    reader: "similarity",
    reply: "Score: 4\nIt also drops the second example entirely. Let's make it a 3.",
    expected: 3,
  },
  {
    category: "prose revision",
    reader: "similarity",
    reply: "Similarity: 2. Reading the reference again, the meaning matches; I'll raise it to 4.",
    expected: 4,
  },
  {
    category: "prose revision",
    reader: "tot-score",
    reply: "Score: 0.9\nIt repeats itself twice, so I'd bring that down to 0.7.",
    expected: 0.7,
  },
  {
    category: "prose revision",
    reader: "answer",
    reply:
      "Relevance: 2\nAccuracy: 2\nCompleteness: 2\nPrecision: 2\n\nOne correction: the date in the answer is off by a decade, so accuracy should be 1.",
    expected: { relevance: 2, accuracy: 1, completeness: 2, precision: 2 },
  },
  {
    category: "note after JSON",
    reader: "answer",
    reply:
      '{"relevance": 2, "accuracy": 2, "completeness": 1, "precision": 2}\n\nNote: on reflection, completeness should be 0 — the answer never gives the second step.',
    expected: { relevance: 2, accuracy: 2, completeness: 0, precision: 2 },
  },
  {
    category: "note after JSON",
    reader: "retrieval",
    reply:
      '{"reason": "On topic.", "score": 2}\nCorrection: the passage is about a different product, so the score should be 0.',
    expected: 0,
  },
  {
    category: "note after JSON",
    reader: "similarity",
    reply:
      '```json\n{"score": 5}\n```\nNote: I overstated that — it should be 4, one caveat is lost.',
    expected: 4,
  },
  {
    category: "prose revision",
    reader: "rerank-relevance",
    reply:
      "Doc: 1, Relevance: 8\nDoc: 2, Relevance: 6\nOn reflection, Doc 2 deserves a 3, not a 6.",
    expected: { 1: { final: 8 }, 2: { final: 3 } },
  },
  {
    category: "duplicated line",
    reader: "rerank-relevance",
    reply: "Doc: 3, Relevance: 4\nDoc: 1, Relevance: 7\nDoc: 3, Relevance: 6",
    expected: { 3: { final: 6 }, 1: { final: 7 } },
  },
  {
    category: "prose revision",
    reader: "item-pointwise",
    reply: "Useful: no. Hmm, it does give the year in the last line, so I'll change that to yes.",
    expected: true,
  },
  {
    category: "prose revision",
    reader: "pairwise",
    reply:
      "[[A]]\n\nWait, I mixed up the labels: the answer with the correct figure is Assistant B's. [[B]]",
    expected: "B",
  },
  // ── conditionals never override ──
  {
    category: "conditional verdict",
    reader: "pairwise",
    reply:
      "Assistant B answers the question more accurately. [[B]]\n\nIf the user cared mostly about brevity, [[A]] would be better.",
    expected: "B",
  },
  {
    category: "conditional verdict",
    reader: "pairwise",
    reply:
      "Verdict: A\n\nHad the question asked for sources, Assistant B would have been the better answer.",
    expected: "A",
  },
  {
    category: "conditional verdict",
    reader: "pairwise",
    reply:
      "Final verdict: [[C]]. Both are correct. Were the user a beginner, A would be preferable.",
    expected: "C",
  },
  {
    category: "conditional score",
    reader: "retrieval",
    reply: "Score: 1\nIf the question were about the 2019 release, this would be a 2.",
    expected: 1,
  },
  {
    category: "conditional score",
    reader: "similarity",
    reply: "Score: 3. If the candidate had kept the caveat, it would be a 5.",
    expected: 3,
  },
  {
    category: "conditional score",
    reader: "tot-score",
    reply: "0.6 — it would be 0.9 if it weren't so repetitive.",
    expected: 0.6,
  },
  {
    category: "conditional score",
    reader: "answer",
    reply:
      "Relevance: 2\nAccuracy: 1\nCompleteness: 1\nPrecision: 2\nIf the user only wanted the command, completeness would be 2.",
    expected: { relevance: 2, accuracy: 1, completeness: 1, precision: 2 },
  },
  {
    category: "conditional score",
    reader: "rerank-relevance",
    reply: "Doc: 1, Relevance: 4\nDoc: 2, Relevance: 9\nFor a user on Ubuntu, Doc 1 would be a 7.",
    expected: { 1: { final: 4 }, 2: { final: 9 } },
  },
  {
    category: "conditional verdict",
    reader: "item-pointwise",
    reply: "Useful: yes. It would not be useful if the question were about the older version.",
    expected: true,
  },
  {
    category: "revision with no value",
    reader: "retrieval",
    reply: "Score: 2\nActually, I'm not sure about that any more.",
    expected: null,
  },
];

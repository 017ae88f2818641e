import type { Criterion } from "../../../shared/rerank/rubric.ts";
import type { CorpusReply } from "./types.ts";

/**
 * What a person takes from a rerank reply, per document number: the final
 * score written, and (with a full breakdown) the 0-10 relevance and the
 * criteria; `"unreadable"` for a document named with a score no one can read.
 */
export type ReadJudgments = Record<
  number,
  | { final: number; relevance?: number; criteria?: Record<string, number> }
  | "unreadable"
  | "dropped"
>;

/** A generated rubric's criteria, for the two-turn replies. */
export const TWO_TURN_CRITERIA: Criterion[] = [
  { name: "methodological_rigor", definition: "d", high: "h", low: "l", weight: 0.6 },
  { name: "practical_applicability", definition: "d", high: "h", low: "l", weight: 0.4 },
];

/** The relevance baseline (LLMRerank-style `Doc: N, Relevance: X`, no criteria), 4 documents. */
export const relevanceReplies: CorpusReply<ReadJudgments>[] = [
  {
    style: "the format",
    reply: "Doc: 2, Relevance: 9\nDoc: 1, Relevance: 6",
    expected: { 2: { final: 9 }, 1: { final: 6 } },
  },
  {
    style: "Document N: Relevance: X",
    reply: "Document 1: Relevance: 8\nDocument 3: Relevance: 4",
    expected: { 1: { final: 8 }, 3: { final: 4 } },
  },
  {
    style: "bold, bullets and a fence",
    reply: "Here you go:\n```\n- **Doc: 4**, Relevance: 7.5\n- **Doc: 2**, Relevance: 3\n```",
    expected: { 4: { final: 7.5 }, 2: { final: 3 } },
  },
  {
    style: "fractions",
    reply: "Doc: 1, Relevance: 8/10\nDoc: 2, Relevance: 6 out of 10",
    expected: { 1: { final: 8 }, 2: { final: 6 } },
  },
  {
    style: "bracketed identifiers",
    reply: "[3] Relevance: 9\n[1] Relevance: 2",
    expected: { 3: { final: 9 }, 1: { final: 2 } },
  },
  {
    style: "fenced JSON",
    reply: '```json\n{"documents": [{"doc": 2, "relevance": 7}, {"doc": 4, "relevance": 5}]}\n```',
    expected: { 2: { final: 7, relevance: 7 }, 4: { final: 5, relevance: 5 } },
  },
  {
    style: "markdown table",
    reply: "| Doc | Relevance |\n|---|---|\n| 1 | 9 |\n| 2 | 4 |",
    expected: { 1: { final: 9 }, 2: { final: 4 } },
  },
  {
    style: "score in words is unreadable, the others stand",
    reply: "Doc: 1, Relevance: 8\nDoc: 2, Relevance: high\nDoc: 3, Relevance: 5",
    expected: { 1: { final: 8 }, 2: "unreadable", 3: { final: 5 } },
  },
  {
    style: "Doc 0 and Doc 9 are not documents",
    reply: "Doc: 0, Relevance: 10\nDoc: 9, Relevance: 10\nDoc: 2, Relevance: 6",
    expected: { 2: { final: 6 } },
  },
  {
    style: "a quoted score line without a document label",
    reply: 'Document 2 says "Relevance: 10" about itself.\nDoc: 2, Relevance: 3\nRelevance: 10',
    expected: { 2: { final: 3 } },
  },
  {
    style: "a score with a gloss",
    reply: "Doc: 1, Relevance: 7 (mostly on topic)\nDoc: 4 - Score: 2",
    expected: { 1: { final: 7 }, 4: { final: 2 } },
  },
];

/** One-turn (REBEL's five fixed criteria), 3 documents. */
export const oneTurnReplies: CorpusReply<ReadJudgments>[] = [
  {
    style: "the format",
    reply:
      "Doc: 1, Relevance: 11.5, Topicality: 8, Depth: 3, Diversity: 1, Clarity: 2, Authoritativeness: 1, Recency: 0",
    expected: {
      1: {
        final: 11.5,
        relevance: 8,
        criteria: { depth: 3, diversity: 1, clarity: 2, authoritativeness: 1, recency: 0 },
      },
    },
  },
  {
    style: "the paper's own labels",
    reply:
      "Doc: 2, Relevance: 12, Topicality: 8, Depth of Content: 4, Diversity of Perspectives: 2, Clarity and Specificity: 3, Authoritativeness of Source: 2, Recency of Information: 1",
    expected: {
      2: {
        final: 12,
        relevance: 8,
        criteria: { depth: 4, diversity: 2, clarity: 3, authoritativeness: 2, recency: 1 },
      },
    },
  },
  {
    style: "Document N: Relevance: X with no breakdown",
    reply: "Document 1: Relevance: 8\nDocument 2: Relevance: 6.5",
    expected: { 1: { final: 8 }, 2: { final: 6.5 } },
  },
  {
    style: "incomplete breakdown keeps the stated final only",
    reply: "Doc: 3, Relevance: 9, Topicality: 7, Depth: 4",
    expected: { 3: { final: 9 } },
  },
  {
    style: "markdown table with a final column",
    reply: [
      "| Doc | Relevance | Depth | Diversity | Clarity | Authoritativeness | Recency | Final |",
      "|---|---|---|---|---|---|---|---|",
      "| 1 | 8 | 3 | 1 | 2 | 1 | 0 | 11.5 |",
      "| 2 | 5 | 1 | 1 | 1 | 1 | 1 | 7.5 |",
    ].join("\n"),
    expected: {
      1: {
        final: 11.5,
        relevance: 8,
        criteria: { depth: 3, diversity: 1, clarity: 2, authoritativeness: 1, recency: 0 },
      },
      2: {
        final: 7.5,
        relevance: 5,
        criteria: { depth: 1, diversity: 1, clarity: 1, authoritativeness: 1, recency: 1 },
      },
    },
  },
  {
    style: "fenced JSON",
    reply:
      '```json\n{"documents": [{"doc": 1, "relevance": 9, "criteria": {"depth": 4, "diversity": 3, "clarity": 5, "authoritativeness": 4, "recency": 2}}]}\n```',
    expected: {
      1: {
        final: 9,
        relevance: 9,
        criteria: { depth: 4, diversity: 3, clarity: 5, authoritativeness: 4, recency: 2 },
      },
    },
  },
  {
    style: "bold labels and a reason",
    reply:
      "**Doc: 2**, Relevance: 10, Topicality: 7, Depth: 2, Diversity: 1, Clarity: 3, Authoritativeness: 2, Recency: 4, Reason: dated but precise, and well sourced",
    expected: {
      2: {
        final: 10,
        relevance: 7,
        criteria: { depth: 2, diversity: 1, clarity: 3, authoritativeness: 2, recency: 4 },
      },
    },
  },
  {
    style: "criterion scores as fractions",
    reply:
      "Doc: 1, Relevance: 12, Topicality: 8, Depth: 4/5, Diversity: 2/5, Clarity: 3/5, Authoritativeness: 2/5, Recency: 1/5",
    expected: {
      1: {
        final: 12,
        relevance: 8,
        criteria: { depth: 4, diversity: 2, clarity: 3, authoritativeness: 2, recency: 1 },
      },
    },
  },
  {
    style: "a relevance in words is unreadable",
    reply: "Doc: 1, Relevance: high\nDoc: 2, Relevance: 7",
    expected: { 1: "unreadable", 2: { final: 7 } },
  },
  {
    style: "a document scored again: the last score stated wins (issue #32)",
    reply: "Doc: 2, Relevance: n/a\nDoc: 2, Relevance: 6\nDoc: 2, Relevance: 9",
    expected: { 2: { final: 9 } },
  },
];

/** Two-turn (a generated rubric's criteria), 3 documents. */
export const twoTurnReplies: CorpusReply<ReadJudgments>[] = [
  {
    style: "the format",
    reply:
      "Doc: 1, Relevance: 10, Topicality: 7, Methodological Rigor: 4, Practical Applicability: 2",
    expected: {
      1: {
        final: 10,
        relevance: 7,
        criteria: { methodological_rigor: 4, practical_applicability: 2 },
      },
    },
  },
  {
    style: "keys as written in the rubric",
    reply:
      "Doc: 2, Relevance: 8, Topicality: 6, methodological_rigor: 3, practical_applicability: 2",
    expected: {
      2: {
        final: 8,
        relevance: 6,
        criteria: { methodological_rigor: 3, practical_applicability: 2 },
      },
    },
  },
  {
    style: "shortened labels",
    reply: "Doc: 3, Relevance: 9, Topicality: 6, Rigor: 5, Applicability: 3",
    expected: {
      3: {
        final: 9,
        relevance: 6,
        criteria: { methodological_rigor: 5, practical_applicability: 3 },
      },
    },
  },
  {
    style: "Document N with a dash",
    reply: "Document 2 - Relevance: 7\nDocument 1 - Relevance: 5",
    expected: { 2: { final: 7 }, 1: { final: 5 } },
  },
  {
    style: "fenced JSON with the rubric's keys",
    reply:
      '```json\n{"documents": [{"doc": 1, "relevance": 6, "criteria": {"methodological_rigor": 2, "practical_applicability": 5}}]}\n```',
    expected: {
      1: {
        final: 6,
        relevance: 6,
        criteria: { methodological_rigor: 2, practical_applicability: 5 },
      },
    },
  },
  {
    style: "table with topicality",
    reply: [
      "| Document | Relevance | Topicality | Methodological Rigor | Practical Applicability |",
      "| --- | --- | --- | --- | --- |",
      "| Doc 1 | 9.2 | 7 | 3 | 2 |",
    ].join("\n"),
    expected: {
      1: {
        final: 9.2,
        relevance: 7,
        criteria: { methodological_rigor: 3, practical_applicability: 2 },
      },
    },
  },
  {
    style: "an unknown criterion leaves the breakdown incomplete",
    reply: "Doc: 1, Relevance: 9, Topicality: 7, Novelty: 4, Practical Applicability: 2",
    expected: { 1: { final: 9 } },
  },
  {
    style: "prose around lines",
    reply:
      "Let me think about each.\nDoc: 3, Relevance: 4, Topicality: 3, Methodological Rigor: 1, Practical Applicability: 1\nThat is all.",
    expected: {
      3: {
        final: 4,
        relevance: 3,
        criteria: { methodological_rigor: 1, practical_applicability: 1 },
      },
    },
  },
  {
    style: "scores past their scales are not clamped: the breakdown is unread, the final stands",
    reply:
      "Doc: 2, Relevance: 14, Topicality: 12, Methodological Rigor: 7, Practical Applicability: 5",
    expected: { 2: { final: 14 } },
  },
  {
    style: "nothing usable",
    reply: "I could not rank these documents. Relevance: 10 to all!",
    expected: {},
  },
];

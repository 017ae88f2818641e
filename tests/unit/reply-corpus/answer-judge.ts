import type { AnswerScores } from "../../../shared/judge/types.ts";
import type { CorpusReply } from "./types.ts";

const all = (
  relevance: number,
  accuracy: number,
  completeness: number,
  precision: number,
): AnswerScores => ({ relevance, accuracy, completeness, precision });

/** RAGElo's pointwise answer judge (four scores, each 0-2) in plain-text mode. */
export const answerJudgeReplies: CorpusReply<AnswerScores>[] = [
  {
    style: "the format: a JSON last line",
    reply:
      'The answer is grounded.\n{"relevance": 2, "accuracy": 2, "completeness": 1, "precision": 2}',
    expected: all(2, 2, 1, 2),
  },
  {
    style: "fenced JSON",
    reply:
      '```json\n{"reasoning": "Partly wrong.", "relevance": 2, "accuracy": 1, "completeness": 1, "precision": 1}\n```',
    expected: all(2, 1, 1, 1),
  },
  {
    style: "labelled lines",
    reply: "Relevance: 2\nAccuracy: 1\nCompleteness: 1\nPrecision: 2",
    expected: all(2, 1, 1, 2),
  },
  {
    style: "bold labels",
    reply: "- **Relevance:** 2\n- **Accuracy:** 2\n- **Completeness:** 2\n- **Precision:** 1",
    expected: all(2, 2, 2, 1),
  },
  {
    style: "markdown table",
    reply:
      "| Criterion | Score |\n|---|---|\n| Relevance | 2 |\n| Accuracy | 0 |\n| Completeness | 1 |\n| Precision | 1 |",
    expected: all(2, 0, 1, 1),
  },
  {
    style: "fractions",
    reply: "Relevance: 2/2\nAccuracy: 1/2\nCompleteness: 1/2\nPrecision: 2/2",
    expected: all(2, 1, 1, 2),
  },
  {
    style: "lines with glosses",
    reply:
      "Relevance: 2 (on point)\nAccuracy: 2 - matches the documents\nCompleteness: 0 - misses the date\nPrecision: 1",
    expected: all(2, 2, 0, 1),
  },
  {
    style: "capitalised JSON keys",
    reply: '{"Relevance": 1, "Accuracy": 1, "Completeness": 1, "Precision": 1}',
    expected: all(1, 1, 1, 1),
  },
  {
    style: "score suffix on labels",
    reply:
      "Relevance score: 0\nAccuracy score: 0\nCompleteness score: 0\nPrecision score: 0\nThe answer is off topic.",
    expected: all(0, 0, 0, 0),
  },
  {
    style: "number words",
    reply: "Relevance: two\nAccuracy: two\nCompleteness: one\nPrecision: two",
    expected: all(2, 2, 1, 2),
  },
  { style: "one score missing", reply: "Relevance: 2\nAccuracy: 2\nPrecision: 2", expected: null },
  { style: "prose only", reply: "The answer is relevant and accurate.", expected: null },
  {
    style: "out of range",
    reply: "Relevance: 5\nAccuracy: 4\nCompleteness: 5\nPrecision: 3",
    expected: null,
  },
];

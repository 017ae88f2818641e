import type { CorpusReply } from "./types.ts";

/** What a person takes from a rubric reply: each criterion's key and weight, and the threshold. */
export type ReadRubric = { criteria: [string, number][]; threshold: number };

const RIGOR = '{"name": "Methodological Rigor", "definition": "Sound methods.", ' +
  '"high": "Controlled study.", "low": "Anecdote.", "weight": 0.6}';
const USE = '{"name": "Practical Applicability", "definition": "Usable advice.", ' +
  '"high": "Steps to follow.", "low": "Theory only.", "weight": 0.4}';
const TAIL = '"relevance": {"definition": "Addresses the question."}, ' +
  '"relevance_threshold": 3, "tie_break": "methodological_rigor"';

/** REBEL's generated rubric, as models reply to the meta prompt. */
export const rubricReplies: CorpusReply<ReadRubric>[] = [
  {
    style: "the format",
    reply: `{"criteria": [${RIGOR}, ${USE}], ${TAIL}}`,
    expected: {
      criteria: [["methodological_rigor", 0.6], ["practical_applicability", 0.4]],
      threshold: 3,
    },
  },
  {
    style: "fenced JSON after prose",
    reply:
      `Here is a rubric for this query:\n\n\`\`\`json\n{"criteria": [${RIGOR}], ${TAIL}}\n\`\`\``,
    expected: { criteria: [["methodological_rigor", 0.6]], threshold: 3 },
  },
  {
    style: "wrapped in a rubric key",
    reply: `{"rubric": {"criteria": [${USE}], ${TAIL}}}`,
    expected: { criteria: [["practical_applicability", 0.4]], threshold: 3 },
  },
  {
    style: "trailing commas",
    reply: `{"criteria": [${RIGOR}, ${USE},], ${TAIL},}`,
    expected: {
      criteria: [["methodological_rigor", 0.6], ["practical_applicability", 0.4]],
      threshold: 3,
    },
  },
  {
    style: "weights as strings and percentages",
    reply: '{"criteria": [{"name": "Rigor", "definition": "d", "high": "h", "low": "l", ' +
      '"weight": "0.7"}, {"name": "Clarity", "definition": "d", "high": "h", "low": "l", ' +
      `"weight": "30%"}], ${TAIL}}`,
    expected: { criteria: [["rigor", 0.7], ["clarity", 0.3]], threshold: 3 },
  },
  {
    style: "capitalised keys and description",
    reply: '{"Criteria": [{"Name": "Depth", "Description": "Covers the topic.", "Weight": 0.5}], ' +
      '"Relevance": "Answers the question.", "Relevance_Threshold": 4}',
    expected: { criteria: [["depth", 0.5]], threshold: 4 },
  },
  {
    style: "missing high, low and tie-break",
    reply: '{"criteria": [{"name": "Recency", "definition": "Recent work.", "weight": 0.5}], ' +
      '"relevance": {"definition": "On topic."}, "relevance_threshold": 2}',
    expected: { criteria: [["recency", 0.5]], threshold: 2 },
  },
  {
    style: "threshold as a string",
    reply: `{"criteria": [${RIGOR}], "relevance": {"definition": "x"}, "relevance_threshold": "5"}`,
    expected: { criteria: [["methodological_rigor", 0.6]], threshold: 5 },
  },
  {
    style: "curly quotes",
    reply: "{“criteria”: [{“name”: “Novelty”, “definition”: “New findings.”, “weight”: 1}], " +
      "“relevance”: {“definition”: “On topic.”}, “relevance_threshold”: 3}",
    expected: { criteria: [["novelty", 1]], threshold: 3 },
  },
  {
    style: "a comment line",
    reply:
      `{\n// the most important first\n"criteria": [${RIGOR}],\n"relevance": {"definition": "x"},\n"relevance_threshold": 3\n}`,
    expected: { criteria: [["methodological_rigor", 0.6]], threshold: 3 },
  },
  {
    style: "a markdown list, no JSON, is read (issue #32)",
    reply: "1. **Rigor** (weight 0.6): sound methods.\n2. **Applicability** (weight 0.4).",
    expected: { criteria: [["rigor", 0.6], ["applicability", 0.4]], threshold: 3 },
  },
  {
    style: "a list of sentences is no rubric",
    reply:
      "- The documents I was given do not say enough about the topic to judge them.\n- Please send more context.",
    expected: null,
  },
  { style: "a refusal", reply: "I cannot write a rubric for this query.", expected: null },
];

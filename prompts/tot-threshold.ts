import type { PromptTemplate } from "../shared/llm/prompt.ts";

/**
 * ToT-RAG's thought evaluator (paper 003 §3.3, Appendix A), in our words:
 * from one level's scores, one threshold per dimension; a candidate goes on
 * only if it meets every threshold, and about half or more should.
 */
export const totThresholdPrompt = {
  id: "tot-threshold",
  version: 1,
  system:
    `You are the evaluator of one stage of a screening of candidate passages. {{stage}} Other models scored every candidate from 0 to 1 on these dimensions: {{dimensions}}.
Set one threshold per dimension, each a decimal between 0 and 1. A candidate goes on only if it scores at or above the threshold of every dimension; the others are dropped as weak. Drop the weak ones, but set the thresholds so that about half of the candidates or more go on: a threshold above every candidate's score would drop them all.

{{format}}`,
  user: `Scores of {{count}} candidates:
{{scores}}`,
  stages: {
    quality: "This stage screens the candidates' text quality.",
    similarity: "This stage screens the candidates' similarity to the user's query.",
  },
  formatJson: `Reply with a JSON object {"thresholds": {{example_json}}}.`,
  formatText: `Reply only with one line per dimension, of this form, and nothing else:
<dimension>: <threshold between 0 and 1>
Example:
{{example_lines}}`,
} as const satisfies PromptTemplate & Record<string, unknown>;

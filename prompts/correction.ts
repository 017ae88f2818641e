import type { PromptTemplate } from "../shared/llm/prompt.ts";

/**
 * The one correction turn every step that parses a reply sends after an
 * unreadable one: the model's own reply as an assistant turn, then this, so
 * the model sees what went wrong and the format again. Short, and saying
 * only what went wrong. `system` is unused: the step's own system prompt stands.
 */
export const correctionPrompt = {
  id: "correction",
  version: 2,
  system: "",
  user: "{{problem}} Answer again, in exactly this format:\n{{format}}",
  /** What was wrong, by step. */
  unreadable: "I could not read a judgment from your reply.",
  onlyReasoning:
    "Your reply held only your reasoning and no answer. Give the answer alone, without your reasoning.",
  /** Stands for the model's turn when it held only reasoning, which is never sent back. */
  noAnswerTurn: "(reasoning only, no answer)",
  unreadableDocuments: "I could not read a score for document(s) {{documents}} in your reply.",
  noScores: "I could not read a score for any document in your reply.",
  noRubric: "I could not read a rubric (a list of criteria) from your reply.",
  noQueries: "I could not read any search query from your reply.",
  noRanking: "I could not read a ranking of the passages from your reply.",
  noSelection: "I could not read which passages you selected from your reply.",
  noVerdict: "I could not read a yes or no from your reply.",
  noScore: "I could not read a score between 0 and 1 from your reply.",
  noDimensions: "I could not read which dimensions you chose from your reply.",
  noThresholds: "I could not read a threshold for each dimension from your reply.",
  /** Formats for steps whose own prompt has no separate format text. */
  rubricFormat:
    `{"criteria": [{"name": "...", "definition": "...", "high": "...", "low": "...", "weight": 0.5}], "relevance": {"definition": "..."}, "relevance_threshold": 3, "tie_break": "<a criterion's name>"} (JSON only)`,
  rubricRelevanceFormat:
    `{"criteria": [], "relevance": {"definition": "..."}, "relevance_threshold": 3, "tie_break": "retrieval_rank"} (JSON only)`,
} as const satisfies PromptTemplate & Record<string, string | number>;

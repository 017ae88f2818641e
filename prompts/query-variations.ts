import type { PromptTemplate } from "../shared/llm/prompt.ts";

/** RAG-Fusion: several search queries that approach the user's question from different angles. */
export const queryVariationsPrompt = {
  id: "query-variations",
  version: 1,
  system: `You help a search engine find passages that answer a user's question.
Write {{count}} different search queries for the question. Each query should approach it from another angle: other words for the same idea, a narrower sub-question, the key terms alone, or the likely wording of a passage that answers it. Keep each query under 20 words and in the question's language. Do not answer the question.`,
  user: `<question>{{query}}</question>

{{format}}`,
  formatJson:
    `Reply with a JSON object: {"queries": ["...", "..."]} holding exactly {{count}} queries.`,
  formatText:
    `Reply with exactly {{count}} lines, one query per line, numbered "1." to "{{count}}.", and nothing else.`,
} as const satisfies PromptTemplate & { formatJson: string; formatText: string };

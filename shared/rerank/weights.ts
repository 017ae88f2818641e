import { oneTurnRubric } from "../../prompts/rerank-one-turn.ts";
import type { Rubric } from "./rubric.ts";

/**
 * REBEL one-turn: the five fixed criteria, with the caller's weights where
 * given (a number for all, or per criterion).
 */
export function oneTurnRubricWith(weights?: number | Record<string, number>): Rubric {
  return applyWeights(oneTurnRubric, weights).rubric;
}

/**
 * A rubric with weights overridden. Names that match no criterion are
 * returned so the caller can warn about them.
 */
export function applyWeights(
  rubric: Rubric,
  weights?: number | Record<string, number>,
): { rubric: Rubric; unknown: string[] } {
  if (weights === undefined) return { rubric, unknown: [] };
  if (typeof weights === "number") {
    return {
      rubric: { ...rubric, criteria: rubric.criteria.map((c) => ({ ...c, weight: weights })) },
      unknown: [],
    };
  }
  const names = new Set(rubric.criteria.map((c) => c.name));
  return {
    rubric: {
      ...rubric,
      criteria: rubric.criteria.map((c) => ({ ...c, weight: weights[c.name] ?? c.weight })),
    },
    unknown: Object.keys(weights).filter((name) => !names.has(name)),
  };
}

/**
 * The relevance-only baseline (LLMRerank style): no secondary criteria, no
 * threshold in code (the model leaves out what it finds irrelevant).
 */
export const relevanceOnlyRubric: Rubric = {
  criteria: [],
  relevance: { definition: "How relevant the document is to the question." },
  relevance_threshold: 0,
  tie_break: "retrieval_rank",
};

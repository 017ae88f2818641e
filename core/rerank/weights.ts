import { oneTurnRubric } from "../../prompts/rerank-one-turn.ts";
import type { Rubric } from "../../shared/rerank/rubric.ts";

/**
 * REBEL's weight for every secondary criterion: "w_i = 0.5 in all of our
 * experiments", tuning left to future work (paper 000, §2.1 and J.1.2).
 * Generated rubrics are scored with it unless a request asks for the
 * rubric's own weights (`weights: "rubric"`).
 */
export const REBEL_WEIGHT = 0.5;

/**
 * What a request may say about weights: one for every criterion, one per
 * criterion by name, or `"rubric"`: the weights the rubric itself carries
 * (for a generated rubric, those the meta prompt's model chose).
 */
export type WeightsOption = number | Record<string, number> | "rubric";

/**
 * A generated rubric as it is scored: every criterion at REBEL's 0.5, or
 * with the weights the model wrote when `rubricWeights` is set.
 *
 * @example
 * scoringWeights(generated, false).criteria.every((c) => c.weight === 0.5); // true
 */
export function scoringWeights(rubric: Rubric, rubricWeights: boolean): Rubric {
  return rubricWeights ? rubric : applyWeights(rubric, REBEL_WEIGHT).rubric;
}

/**
 * REBEL one-turn: the five fixed criteria, with the caller's weights where
 * given (a number for all, or per criterion).
 */
export function oneTurnRubricWith(weights?: number | Record<string, number>): Rubric {
  return applyWeights(oneTurnRubric, weights).rubric;
}

/**
 * A rubric with weights overridden (`"rubric"` keeps its own). Names that
 * match no criterion are returned so the caller can warn about them.
 */
export function applyWeights(
  rubric: Rubric,
  weights?: WeightsOption,
): { rubric: Rubric; unknown: string[] } {
  if (weights === undefined || weights === "rubric") return { rubric, unknown: [] };
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
      criteria: rubric.criteria.map((c) => ({
        ...c,
        weight: Object.hasOwn(weights, c.name) ? weights[c.name]! : c.weight,
      })),
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

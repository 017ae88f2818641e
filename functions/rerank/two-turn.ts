import type { Deps } from "../../shared/deps.ts";
import type { Rubric } from "../../shared/rerank/rubric.ts";
import { generateRubric, unreachableRubric } from "../../core/rerank/generate-rubric.ts";
import { applyWeights, type WeightsOption } from "../../core/rerank/weights.ts";

export type ResolvedRubric = {
  rubric: Rubric;
  tokens_in: number;
  tokens_out: number;
  calls: number;
  warnings: string[];
  /** The generated rubric was unusable and the default stood in. */
  degraded: boolean;
};

/**
 * REBEL two-turn, first half: the rubric the second turn scores with. A
 * given rubric is used as is; otherwise one is generated for the query
 * (`two-turn`: secondary criteria; `two-turn-relevance`: a query-specific
 * definition of relevance only), its criteria weighted 0.5 as in REBEL
 * unless `weights` is `"rubric"` (the generated weights) or overrides them. The second turn is the shared scoring path
 * in `shared/rerank/batch.ts`, the same as one-turn's.
 */
export async function twoTurnRubric(
  deps: Pick<Deps, "llm" | "cache">,
  request: {
    query: string;
    strategy: "two-turn" | "two-turn-relevance";
    rubric?: Rubric | undefined;
    weights?: WeightsOption | undefined;
  },
  signal: AbortSignal | undefined,
): Promise<ResolvedRubric> {
  let rubric = request.rubric;
  let spent = { tokens_in: 0, tokens_out: 0, calls: 0, warnings: [] as string[], degraded: false };
  if (!rubric) {
    const relevanceOnly = request.strategy === "two-turn-relevance";
    let generated;
    try {
      generated = await generateRubric(deps, request.query, {
        relevanceOnly,
        rubricWeights: request.weights === "rubric",
        signal,
      });
    } catch (error) {
      // Like a failed rerank batch, a failed rubric call degrades instead of failing the request.
      if (signal?.aborted) throw error;
      const { rubric, warning } = unreachableRubric(request.query, relevanceOnly, error);
      return {
        rubric: applyWeights(rubric, request.weights).rubric,
        tokens_in: 0,
        tokens_out: 0,
        calls: 1,
        warnings: [warning],
        degraded: true,
      };
    }
    rubric = generated.rubric;
    spent = {
      ...generated.usage,
      calls: generated.cached ? 0 : 1,
      warnings: generated.degraded ? generated.repairs : [],
      degraded: generated.degraded,
    };
  }
  const { rubric: weighted, unknown } = applyWeights(rubric, request.weights);
  return {
    ...spent,
    rubric: weighted,
    warnings: [...spent.warnings, ...unknown.map((name) => `weights.${name}: no such criterion`)],
  };
}

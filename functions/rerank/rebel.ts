import type { Deps } from "../../shared/deps.ts";
import {
  DEFAULT_BATCH_CONCURRENCY,
  rerankInBatches,
  rerankPromptTags,
} from "../../core/rerank/batch.ts";
import { strategySpec } from "../../shared/rerank/strategies.ts";
import { applyWeights, oneTurnRubricWith, relevanceOnlyRubric } from "../../core/rerank/weights.ts";
import { documentDigests, RERANK_RESULT_TTL_SECONDS, resultCacheKey } from "./cache.ts";
import { type ResolvedRubric, twoTurnRubric } from "./two-turn.ts";
import type { RerankRequest, RerankResponse } from "./types.ts";

/** The rubric a strategy scores with: fixed, given, or generated (its tokens counted). */
async function resolveRubric(
  deps: Pick<Deps, "llm" | "cache">,
  request: RerankRequest,
  signal: AbortSignal | undefined,
): Promise<ResolvedRubric> {
  if (strategySpec(request.strategy).rubric === "fixed") {
    const base = request.strategy === "one-turn" ? oneTurnRubricWith() : relevanceOnlyRubric;
    const { rubric, unknown } = applyWeights(base, request.weights);
    return {
      rubric,
      tokens_in: 0,
      tokens_out: 0,
      calls: 0,
      warnings: unknown.map((name) => `weights.${name}: no such criterion`),
      degraded: false,
    };
  }
  const strategy = request.strategy;
  // Strategies with their own scoring path (item, tot) are dispatched before a rubric is needed.
  if (strategy !== "two-turn" && strategy !== "two-turn-relevance") {
    throw new Error(`strategy ${strategy} scores without a rubric`);
  }
  return await twoTurnRubric(deps, { ...request, strategy }, signal);
}

/**
 * REBEL's strategies: `relevance` (LLMRerank-style baseline), `one-turn`
 * (five fixed criteria), `two-turn` (a rubric generated for the query, or
 * given) and `two-turn-relevance` (a query-specific definition of relevance
 * only), scored in batches. Results are cached by query, document contents,
 * strategy, rubric, prompt versions and model.
 */
export async function rerankRebel(
  deps: Pick<Deps, "llm" | "cache">,
  request: RerankRequest,
  signal?: AbortSignal,
): Promise<RerankResponse> {
  const topN = request.top_n ?? request.documents.length;
  const withId = (index: number) => {
    const id = request.documents[index]?.id;
    return id === undefined ? {} : { id };
  };
  const resolved = await resolveRubric(deps, request, signal);
  const key = await resultCacheKey("rerank", {
    query: request.query,
    documents: await documentDigests(request.documents, { metadata: true }),
    strategy: request.strategy,
    rubric: resolved.rubric,
    explain: request.explain,
    batch_size: request.batch_size,
    model: deps.llm.model,
    structured: deps.llm.structuredOutputs,
    prompts: rerankPromptTags(),
    ...(request.trusted_sources ? { trusted_sources: request.trusted_sources } : {}),
  });
  const hit = await deps.cache.get<Omit<RerankResponse, "usage">>(key);
  const usageOf = (tokensIn: number, tokensOut: number, calls: number, cached: boolean) => ({
    tokens_in: tokensIn,
    tokens_out: tokensOut,
    llm_calls: calls,
    cached,
  });
  if (hit) {
    return {
      ...hit,
      results: hit.results.slice(0, topN),
      usage: usageOf(resolved.tokens_in, resolved.tokens_out, resolved.calls, true),
    };
  }
  const batched = await rerankInBatches(deps.llm, {
    query: request.query,
    documents: request.documents,
    rubric: resolved.rubric,
    prompt: request.strategy === "relevance" ? "relevance" : "rubric",
    explain: request.explain,
    batchSize: request.batch_size,
    concurrency: DEFAULT_BATCH_CONCURRENCY,
    trustedSources: request.trusted_sources,
  }, signal);
  const warnings = [...resolved.warnings, ...batched.warnings];
  const full: Omit<RerankResponse, "usage"> = {
    results: batched.ranked.map((ranked) => ({
      index: ranked.index,
      ...withId(ranked.index),
      relevance_score: ranked.degraded ? null : ranked.scores.final,
      scores: ranked.degraded ? null : ranked.scores,
      ...(ranked.reason ? { reason: ranked.reason } : {}),
      ...(ranked.degraded ? { degraded: true as const } : {}),
    })),
    discarded: batched.discarded,
    ...(request.strategy === "relevance" ? {} : { rubric: resolved.rubric }),
    degraded: batched.degraded || resolved.degraded,
    ...(warnings.length ? { warnings } : {}),
    readings: batched.readings,
  };
  if (!full.degraded) await deps.cache.set(key, full, { ttlSeconds: RERANK_RESULT_TTL_SECONDS });
  return {
    ...full,
    results: full.results.slice(0, topN),
    usage: usageOf(
      resolved.tokens_in + batched.usage.tokens_in,
      resolved.tokens_out + batched.usage.tokens_out,
      resolved.calls + batched.usage.llm_calls,
      false,
    ),
  };
}

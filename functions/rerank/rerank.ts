import type { Deps } from "../../shared/runtime.ts";
import { sha256Hex } from "../../shared/hash.ts";
import {
  DEFAULT_BATCH_CONCURRENCY,
  rerankInBatches,
  rerankPromptTags,
} from "../../shared/rerank/batch.ts";
import type { Rubric } from "../../shared/rerank/rubric.ts";
import type { Discarded } from "../../shared/rerank/score.ts";
import type {
  Readings,
  RerankDocument,
  RerankStrategy,
  Scores,
} from "../../shared/rerank/types.ts";
import { type ResolvedRubric, twoTurnRubric } from "./two-turn.ts";
import { rerankItem } from "./item/item.ts";
import { rerankTot, type TotTree } from "./tot/tot.ts";
import type { TotOptions } from "../../shared/rerank/tot/options.ts";
import type {
  ItemIteration,
  ItemOptions,
  ItemStopReason,
} from "../../shared/rerank/item-options.ts";
import {
  applyWeights,
  oneTurnRubricWith,
  relevanceOnlyRubric,
  type WeightsOption,
} from "../../shared/rerank/weights.ts";

export type RerankRequest = {
  query: string;
  documents: RerankDocument[];
  strategy: RerankStrategy;
  top_n?: number | undefined;
  /** For two-turn strategies: use this rubric instead of generating one. */
  rubric?: Rubric | undefined;
  /** Default: 0.5 for a generated rubric's criteria, a given rubric's own weights. */
  weights?: WeightsOption | undefined;
  explain: boolean;
  batch_size: number;
  /** For strategy item: its options (defaults: AR_s, explicit, listwise, m = 3). */
  item?: ItemOptions | undefined;
  /** For strategy tot: pinned dimensions per level and the unit (passage by default). */
  tot?: TotOptions | undefined;
  /** `SOURCE_TRUST`: only documents from these hosts score on authority criteria. */
  trusted_sources?: readonly string[] | undefined;
};

export type RerankResultItem = {
  index: number;
  id?: string;
  /** Equals `scores.final`; null for a document whose batch degraded. */
  relevance_score: number | null;
  scores: (Omit<Scores, "relevance"> & { relevance: number | null }) | null;
  reason?: string;
  degraded?: true;
  /** Strategy tot, sentence unit: the kept sentence and its index among `tree.sentences`. */
  sentence?: string;
  candidate?: number;
};

export type RerankResponse = {
  results: RerankResultItem[];
  discarded: Discarded[];
  rubric?: Rubric;
  usage: { tokens_in: number; tokens_out: number; llm_calls: number; cached: boolean };
  degraded: boolean;
  warnings?: string[];
  /** Strategy item: each iteration (pseudo-answer, ranking, utility set) and why it stopped. */
  iterations?: ItemIteration[];
  stop_reason?: ItemStopReason;
  /** Strategy tot: each level's dimensions, thresholds and candidates. */
  tree?: TotTree;
  /** Values asked of the model, and those unreadable after a correction (every LLM strategy). */
  readings?: Readings;
};

const RESULT_TTL_SECONDS = 24 * 3600;

/** The rubric a strategy scores with: fixed, given, or generated (its tokens counted). */
async function resolveRubric(
  deps: Pick<Deps, "llm" | "cache">,
  request: RerankRequest,
  signal: AbortSignal | undefined,
): Promise<ResolvedRubric> {
  if (
    request.strategy === "one-turn" || request.strategy === "relevance" ||
    request.strategy === "none"
  ) {
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
 * Reranks documents with one strategy: `none` (retrieval order), `relevance`
 * (LLMRerank-style baseline), `one-turn` (REBEL's five fixed criteria),
 * `two-turn` (a rubric generated for the query, or given) and
 * `two-turn-relevance` (a query-specific definition of relevance only).
 * Results are cached by query, document contents, strategy, rubric, prompt
 * versions and model.
 */
export async function rerank(
  deps: Pick<Deps, "llm" | "cache">,
  request: RerankRequest,
  signal?: AbortSignal,
): Promise<RerankResponse> {
  const topN = request.top_n ?? request.documents.length;
  const withId = (index: number) => {
    const id = request.documents[index]?.id;
    return id === undefined ? {} : { id };
  };
  if (request.strategy === "none") {
    return {
      results: request.documents.slice(0, topN).map((_, index) => ({
        index,
        ...withId(index),
        relevance_score: null,
        scores: null,
      })),
      discarded: [],
      usage: { tokens_in: 0, tokens_out: 0, llm_calls: 0, cached: false },
      degraded: false,
    };
  }
  if (request.strategy === "item") return await rerankItem(deps, request, signal);
  if (request.strategy === "tot") return await rerankTot(deps, request, signal);
  const resolved = await resolveRubric(deps, request, signal);
  const key = `rerank:${await sha256Hex(JSON.stringify({
    query: request.query,
    documents: await Promise.all(
      request.documents.map((d) => sha256Hex(JSON.stringify([d.text, d.metadata ?? {}]))),
    ),
    strategy: request.strategy,
    rubric: resolved.rubric,
    explain: request.explain,
    batch_size: request.batch_size,
    model: deps.llm.model,
    structured: deps.llm.structuredOutputs,
    prompts: rerankPromptTags(),
    ...(request.trusted_sources ? { trusted_sources: request.trusted_sources } : {}),
  }))}`;
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
  if (!full.degraded) await deps.cache.set(key, full, { ttlSeconds: RESULT_TTL_SECONDS });
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

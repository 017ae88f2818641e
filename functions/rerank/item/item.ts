import { documentDigests, RERANK_RESULT_TTL_SECONDS, resultCacheKey } from "../cache.ts";
import { promptTag } from "../../../shared/llm/prompt.ts";
import {
  type ItemIteration,
  type ItemOptions,
  itemOptionsSchema,
  type ItemStopReason,
} from "../../../shared/rerank/item-options.ts";
import type { Readings, RerankDocument } from "../../../shared/rerank/types.ts";
import type { Deps } from "../../../shared/deps.ts";
import { itemAnswerPrompt } from "../../../prompts/item-answer.ts";
import { itemAnswerImplicitPrompt } from "../../../prompts/item-answer-implicit.ts";
import { itemRelevanceRankingPrompt } from "../../../prompts/item-relevance-ranking.ts";
import { itemUtilityPointwisePrompt } from "../../../prompts/item-utility-pointwise.ts";
import { itemUtilityRankingPrompt } from "../../../prompts/item-utility-ranking.ts";
import { itemUtilitySelectionPrompt } from "../../../prompts/item-utility-selection.ts";
import { Ledger } from "./ask.ts";
import { runItem } from "./loop.ts";
import { itemScores } from "./score.ts";

export type ItemRerankRequest = {
  query: string;
  documents: RerankDocument[];
  top_n?: number | undefined;
  item?: ItemOptions | undefined;
};

export type ItemRerankResponse = {
  results: { index: number; id?: string; relevance_score: number; scores: null }[];
  discarded: never[];
  usage: { tokens_in: number; tokens_out: number; llm_calls: number; cached: boolean };
  degraded: boolean;
  warnings?: string[];
  iterations: ItemIteration[];
  stop_reason: ItemStopReason;
  /** Judgments asked, and those unreadable after a correction (the step kept its state). */
  readings: Readings;
};

const PROMPT_TAGS = [
  itemAnswerPrompt,
  itemAnswerImplicitPrompt,
  itemRelevanceRankingPrompt,
  itemUtilityRankingPrompt,
  itemUtilitySelectionPrompt,
  itemUtilityPointwisePrompt,
].map(promptTag).join(",");

async function cacheKey(
  deps: Pick<Deps, "llm">,
  request: ItemRerankRequest,
  options: ItemOptions,
): Promise<string> {
  return await resultCacheKey("rerank-item", {
    query: request.query,
    documents: await documentDigests(request.documents, { metadata: true }),
    options,
    model: deps.llm.model,
    structured: deps.llm.structuredOutputs,
    prompts: PROMPT_TAGS,
  });
}

/**
 * ITEM as a rerank strategy: the iterations of `runItem`, then the results
 * in its order (utility set first) with `itemScores`. Like the other
 * strategies, a run no step degraded is cached by query, document contents,
 * options, prompt versions and model.
 */
export async function rerankItem(
  deps: Pick<Deps, "llm" | "cache">,
  request: ItemRerankRequest,
  signal?: AbortSignal,
): Promise<ItemRerankResponse> {
  const options = request.item ?? itemOptionsSchema.parse({});
  const topN = request.top_n ?? request.documents.length;
  const key = await cacheKey(deps, request, options);
  const hit = await deps.cache.get<Omit<ItemRerankResponse, "usage">>(key);
  if (hit) {
    return {
      ...hit,
      results: hit.results.slice(0, topN),
      usage: { tokens_in: 0, tokens_out: 0, llm_calls: 0, cached: true },
    };
  }
  const ledger = new Ledger();
  const run = await runItem({
    llm: deps.llm,
    ledger,
    query: request.query,
    documents: request.documents,
    signal,
  }, options);
  const scores = itemScores(run.order.length, run.utility.length);
  const full: Omit<ItemRerankResponse, "usage"> = {
    results: run.order.map((index, position) => {
      const id = request.documents[index]?.id;
      return {
        index,
        ...(id === undefined ? {} : { id }),
        relevance_score: scores[position]!,
        scores: null,
      };
    }),
    discarded: [],
    degraded: run.iterations.some((iteration) => iteration.degraded),
    ...(run.warnings.length ? { warnings: run.warnings } : {}),
    iterations: run.iterations,
    stop_reason: run.stop_reason,
    readings: { asked: ledger.asked, unreadable: ledger.degraded },
  };
  if (!full.degraded) await deps.cache.set(key, full, { ttlSeconds: RERANK_RESULT_TTL_SECONDS });
  return {
    ...full,
    results: full.results.slice(0, topN),
    usage: {
      tokens_in: ledger.tokens_in,
      tokens_out: ledger.tokens_out,
      llm_calls: ledger.llm_calls,
      cached: false,
    },
  };
}

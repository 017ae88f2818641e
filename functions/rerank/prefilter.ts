import type { Deps } from "../../shared/deps.ts";
import { costOf, totalCost } from "../../shared/cost/cost.ts";
import type { CrossEncoder } from "../../shared/rerank/cross-encoder.ts";
import { inSpan } from "../../shared/tracing/spans.ts";
import { rerank, type RerankRequest, type RerankResponse } from "./rerank.ts";

export type Prefilter = { model: string; top_n: number };

export type PrefilteredResponse = RerankResponse & {
  usage: { cost_usd: number | null };
  prefilter: { model: string; kept: number; of: number };
};

/**
 * A two-stage reranking (REBEL's cost/quality trade): the cross-encoder
 * scores every candidate in one cheap call and keeps `top_n`; the LLM
 * strategy reranks only those. Indices refer to the request's documents;
 * those the first stage cut are `discarded` with the reason. `usage` adds
 * both stages, and `cost_usd` prices each at its own model.
 */
export async function rerankWithPrefilter(
  deps: Pick<Deps, "llm" | "cache" | "config">,
  request: RerankRequest,
  prefilter: Prefilter,
  encoder: CrossEncoder,
  signal?: AbortSignal,
): Promise<PrefilteredResponse> {
  const encoded = await inSpan(
    "sift.rerank.prefilter",
    { "sift.prefilter.model": prefilter.model, "sift.prefilter.top_n": prefilter.top_n },
    () => encoder.rank(request.query, request.documents.map((d) => d.text), signal),
  );
  const kept = encoded.ranked.slice(0, prefilter.top_n).map((entry) => entry.index);
  const cut = encoded.ranked.slice(prefilter.top_n);
  const inner = await rerank(
    deps,
    { ...request, documents: kept.map((index) => request.documents[index]!) },
    signal,
  );
  const original = (index: number) => kept[index]!;
  const firstStage = { tokens_in: encoded.tokensIn, tokens_out: 0 };
  return {
    ...inner,
    results: inner.results.map((result) => ({ ...result, index: original(result.index) })),
    discarded: [
      ...inner.discarded.map((entry) => ({ ...entry, index: original(entry.index) })),
      ...cut.map((entry) => ({
        index: entry.index,
        reason: `cut by the prefilter (${prefilter.model} kept ${prefilter.top_n})`,
      })),
    ],
    usage: {
      ...inner.usage,
      tokens_in: inner.usage.tokens_in + encoded.tokensIn,
      cost_usd: totalCost([
        costOf(encoder.model, firstStage, deps.config.prices),
        costOf(deps.config.llm.model, inner.usage, deps.config.prices),
      ]),
    },
    prefilter: { model: prefilter.model, kept: kept.length, of: request.documents.length },
  };
}

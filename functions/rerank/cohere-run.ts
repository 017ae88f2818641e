import type { Context } from "hono";
import type { AppEnv } from "../../shared/http/app-env.ts";
import { DEFAULT_BATCH_SIZE } from "../../shared/rerank/types.ts";
import { isCrossEncoderModel } from "../../shared/rerank/cross-encoder.ts";
import {
  cohereReply,
  type CohereRequest,
  cohereResults,
  documentOf,
  rankedTexts,
  strategyOf,
} from "./cohere.ts";
import { crossEncoderFor, rerankWithCrossEncoder } from "./cross-encoder.ts";
import { rerank } from "./rerank.ts";
import { checkRerankRequest } from "./runners.ts";

/**
 * A Cohere rerank request run through sift: a cross-encoder `model` ranks
 * alone, a `sift-*` model names the strategy. The reply is Cohere's for
 * `version` (its `meta.api_version`): v2 from `/v2/rerank`, v1 from a Cohere
 * v1 body on `/v1/rerank`.
 */
export async function runCohereRerank(
  c: Context<AppEnv>,
  body: CohereRequest,
  version: "1" | "2",
) {
  const texts = rankedTexts(body);
  if (isCrossEncoderModel(body.model)) {
    const encoder = crossEncoderFor(body.model, c.var.config, c.env ?? {}, {
      tenant: c.var.deps.tenant,
    });
    const ranked = await rerankWithCrossEncoder(
      encoder,
      { query: body.query, documents: texts.map((text) => ({ text })), top_n: body.top_n },
      c.var.config,
      c.req.raw.signal,
    );
    const results = ranked.results.map((result) => ({
      index: result.index,
      relevance_score: result.relevance_score ?? 0,
      ...(body.return_documents ? { document: documentOf(body, result.index) } : {}),
    }));
    return cohereReply(results, [], undefined, version);
  }
  const strategy = strategyOf(body.model);
  checkRerankRequest({ strategy, documents: texts });
  const reranked = await rerank(c.var.deps, {
    query: body.query,
    documents: texts.map((text) => ({ text })),
    strategy,
    // All of them: the discarded ones may still fill top_n.
    top_n: undefined,
    explain: false,
    batch_size: DEFAULT_BATCH_SIZE,
    trusted_sources: c.var.config.sourceTrust,
  }, c.req.raw.signal);
  const { results, discarded } = cohereResults(reranked, strategy, body);
  const warnings = reranked.warnings || reranked.degraded
    ? [...(reranked.degraded ? ["degraded"] : []), ...(reranked.warnings ?? [])]
    : undefined;
  return cohereReply(results, discarded, warnings, version);
}

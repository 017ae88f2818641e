import type { Config } from "../../shared/config.ts";
import { costOf } from "../../shared/cost/cost.ts";
import { InvalidRequestError } from "../../shared/errors.ts";
import type { CrossEncoder } from "../../shared/rerank/cross-encoder.ts";
import { unitScores } from "../../shared/rerank/cross-encoder.ts";
import type { RerankDocument } from "../../shared/rerank/types.ts";
import { workersAiRunner } from "../../providers/workers-ai/from-env.ts";
import { workersAiCrossEncoder } from "../../providers/workers-ai/rerank.ts";
import type { RerankResponse } from "./rerank.ts";

/**
 * The cross-encoder `model` names, reached as this request's environment
 * allows: the `AI` binding on Workers, Cloudflare's REST API elsewhere. A
 * server with neither cannot run it, and the caller is told which field.
 */
export function crossEncoderFor(
  model: string,
  config: Config,
  env: Record<string, unknown>,
  options: { field?: string; tenant?: string | undefined } = {},
): CrossEncoder {
  const field = options.field ?? "model";
  const runner = workersAiRunner(config, env, { step: "rerank", tenant: options.tenant });
  if (!runner) {
    throw new InvalidRequestError(
      `${field}: ${model} runs on Workers AI, which this server has not configured ` +
        "(an AI binding on Workers, or CLOUDFLARE_ACCOUNT_ID and CLOUDFLARE_API_TOKEN)",
    );
  }
  return workersAiCrossEncoder(runner, model);
}

/**
 * A reranking by the cross-encoder alone, in `/v1/rerank`'s shape: every
 * document best first with its score in [0, 1], no criteria, nothing
 * discarded; `usage.cost_usd` at the model's price (its tokens counted here).
 */
export async function rerankWithCrossEncoder(
  encoder: CrossEncoder,
  input: { query: string; documents: readonly RerankDocument[]; top_n?: number | undefined },
  config: Pick<Config, "prices">,
  signal?: AbortSignal,
): Promise<RerankResponse & { model: string; usage: { cost_usd: number | null } }> {
  const encoded = await encoder.rank(input.query, input.documents.map((d) => d.text), signal);
  const scores = unitScores(encoded.ranked.map((entry) => entry.score));
  const usage = { tokens_in: encoded.tokensIn, tokens_out: 0 };
  return {
    model: encoder.model,
    results: encoded.ranked.slice(0, input.top_n ?? encoded.ranked.length).map((entry, i) => {
      const id = input.documents[entry.index]?.id;
      return {
        index: entry.index,
        ...(id !== undefined ? { id } : {}),
        relevance_score: scores[i]!,
        scores: null,
      };
    }),
    discarded: [],
    usage: {
      ...usage,
      llm_calls: 0,
      cached: false,
      cost_usd: costOf(encoder.model, usage, config.prices),
    },
    degraded: false,
  };
}

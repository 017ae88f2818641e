import { inSpan } from "../../shared/tracing/spans.ts";
import type { TokenUsage } from "../../shared/llm/chat.ts";
import { reciprocalRankFusion } from "../../shared/search/rrf.ts";
import type { SearchHit } from "../../shared/vector/port.ts";
import { search, type SearchInput, SPARSE_FALLBACK_REASON } from "./search.ts";
import { generateQueryVariations } from "./variations.ts";
import type { Deps } from "../../shared/deps.ts";

export type FusedHit = SearchHit & {
  rrf_score: number;
  /** Rank (from 1) of this chunk in each query's results, aligned with `queries`; null where absent. */
  ranks: (number | null)[];
};

export type FusionResult = {
  queries: { text: string; origin: "original" | "variation" }[];
  results: FusedHit[];
  /** True when the LLM gave no usable variations, or embeddings failed and BM25 alone ranked. */
  degraded: boolean;
  /** Why, when degraded. */
  reason?: string;
  usage: TokenUsage;
};

const NO_VARIATIONS_REASON =
  "no query variations could be read, even after a correction: fusion ran on the question alone";
const REFUSED_VARIATIONS_REASON =
  "the model refused to write query variations: fusion ran on the question alone";

/** How deep each query's ranking goes before fusion: deeper than top_k, so fusion has room. */
export function fusionDepth(topK: number): number {
  return Math.max(topK * 2, 10);
}

/**
 * RAG-Fusion: the original query plus `variations` LLM-written queries, each
 * retrieved in parallel, fused by reciprocal rank fusion.
 */
export async function ragFusion(
  deps: Pick<Deps, "llm" | "cache" | "embedder" | "index">,
  input: SearchInput & { variations: number; rrf_k?: number | undefined },
  signal?: AbortSignal,
): Promise<FusionResult> {
  const variations = input.variations > 0
    ? await generateQueryVariations(deps, input.query, input.variations, signal)
    : { queries: [], degraded: false, usage: { tokens_in: 0, tokens_out: 0 } };
  const { sparseOnly, embeddingTokens, ...fused } = await retrieveAndFuse(
    deps,
    input,
    variations.queries,
    signal,
  );
  const reasons = [
    ...(variations.degraded
      ? [variations.refused ? REFUSED_VARIATIONS_REASON : NO_VARIATIONS_REASON]
      : []),
    ...(sparseOnly ? [SPARSE_FALLBACK_REASON] : []),
  ];
  return {
    ...fused,
    degraded: reasons.length > 0,
    ...(reasons.length ? { reason: reasons.join("; ") } : {}),
    // The variations' LLM tokens and every query's embedding tokens.
    usage: {
      tokens_in: variations.usage.tokens_in + embeddingTokens,
      tokens_out: variations.usage.tokens_out,
    },
  };
}

/** Fusion's second step: every query retrieved in parallel, rankings fused by RRF. */
export async function retrieveAndFuse(
  deps: Pick<Deps, "cache" | "embedder" | "index">,
  input: SearchInput & { rrf_k?: number | undefined },
  variations: readonly string[],
  signal?: AbortSignal,
): Promise<
  Pick<FusionResult, "queries" | "results"> & { sparseOnly: boolean; embeddingTokens: number }
> {
  const queries = [
    { text: input.query, origin: "original" as const },
    ...variations.map((text) => ({ text, origin: "variation" as const })),
  ];
  const depth = fusionDepth(input.top_k);
  const outcomes = await Promise.all(
    queries.map((query, position) =>
      inSpan(
        `sift.retrieval ${query.origin}`,
        { "sift.query.origin": query.origin, "sift.query.position": position },
        () => search(deps, { ...input, query: query.text, top_k: depth }, signal),
      )
    ),
  );
  const rankings = outcomes.map((outcome) => outcome.hits);
  const hits = new Map(rankings.flat().map((hit) => [hit.id, hit]));
  const fused = reciprocalRankFusion(
    rankings.map((ranking) => ranking.map((hit) => hit.id)),
    input.rrf_k !== undefined ? { k: input.rrf_k } : {},
  );
  return {
    queries,
    sparseOnly: outcomes.some((outcome) => outcome.degraded),
    embeddingTokens: outcomes.reduce((sum, outcome) => sum + outcome.tokensIn, 0),
    results: fused.slice(0, input.top_k).map((item) => ({
      ...hits.get(item.id)!,
      score: item.rrf_score,
      rrf_score: item.rrf_score,
      ranks: item.ranks,
    })),
  };
}

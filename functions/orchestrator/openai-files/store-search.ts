import { z } from "zod";
import { querySchema } from "../../../shared/schemas.ts";
import { callStep } from "../../../shared/steps/call.ts";
import { resolveStep, type StepContext } from "../../../shared/steps/transport.ts";
import type { MetadataFilter, SearchHit } from "../../../shared/vector/port.ts";
import { DEFAULT_RRF_K, reciprocalRankFusion } from "../../../shared/search/rrf.ts";
import { attributesOf } from "./attributes.ts";
import { filterSchema, siftFilters } from "./filters.ts";
import { storeRecordOf } from "./vector-stores.ts";

/** sift's own rankers for `ranking_options.ranker`, as `/v2/rerank` names them. */
export const SIFT_RANKERS = [
  "sift-one-turn",
  "sift-two-turn",
  "sift-relevance",
  "sift-two-turn-relevance",
  "sift-item",
  "sift-tot",
] as const;
/** OpenAI's rankers: sift's default search, hybrid retrieval fused by RRF, no rerank. */
const OPENAI_RANKERS = ["auto", "default-2024-11-15", "none"] as const;

export const storeSearchSchema = z.strictObject({
  query: z.union([querySchema, z.array(querySchema).min(1).max(10)], {
    error: "must be a string or an array of 1-10 strings",
  }),
  filters: filterSchema.nullish(),
  max_num_results: z.number().int().min(1, { error: "must be at least 1" })
    .max(50, { error: "must be at most 50" }).default(10),
  ranking_options: z.strictObject({
    ranker: z.enum([...OPENAI_RANKERS, ...SIFT_RANKERS], {
      error: `must be one of ${[...OPENAI_RANKERS, ...SIFT_RANKERS].join(", ")}`,
    }).optional(),
    score_threshold: z.number().min(0, { error: "must be in [0, 1]" })
      .max(1, { error: "must be in [0, 1]" }).optional(),
  }).nullish(),
  rewrite_query: z.boolean({ error: "must be a boolean" }).nullish(),
});

export type StoreSearch = z.infer<typeof storeSearchSchema>;

const searchReplySchema = z.object({
  results: z.array(z.looseObject({
    id: z.string(),
    doc_id: z.string(),
    text: z.string(),
    score: z.number(),
    metadata: z.looseObject({}),
  })),
});
const rerankReplySchema = z.object({
  results: z.array(z.object({ index: z.number().int(), relevance_score: z.number() })),
});

/** Hybrid search fuses two rankings by RRF (k = 60): a chunk first in both scores 2/61. */
const BEST_HYBRID_SCORE = 2 / 61;

/** A hybrid RRF score on OpenAI's scale, [0, 1]: 1 for a chunk first in both rankings. */
function scaled(score: number): number {
  return Math.min(1, Math.max(0, score / BEST_HYBRID_SCORE));
}

/** Weights of the dense and keyword rankings (`file_search`'s `ranking_options.hybrid_search`). */
export type HybridWeights = { embedding_weight: number; text_weight: number };

async function searchMode(
  context: StepContext,
  storeId: string,
  query: string,
  filter: MetadataFilter,
  topK: number,
  mode: "hybrid" | "dense" | "sparse",
): Promise<SearchHit[]> {
  const reply = await callStep(resolveStep("FUSE", context), "/v1/search", {
    query,
    top_k: topK,
    mode,
    namespace: storeId,
    ...(Object.keys(filter).length ? { filter } : {}),
  }, { schema: searchReplySchema, context, timeoutMs: context.config.steps.timeoutMs });
  return reply.results as SearchHit[];
}

/**
 * One query under one filter, scored on [0, 1]: sift's hybrid search (RRF of
 * its dense and keyword rankings, equal weights), or with `weights` the two
 * rankings fused here by RRF with those weights; either way the score is the
 * RRF sum over the most it can be (first in both rankings).
 */
async function searchOnce(
  context: StepContext,
  storeId: string,
  query: string,
  filter: MetadataFilter,
  topK: number,
  weights: HybridWeights | undefined,
): Promise<SearchHit[]> {
  if (!weights) {
    const hits = await searchMode(context, storeId, query, filter, topK, "hybrid");
    return hits.map((hit) => ({ ...hit, score: scaled(hit.score) }));
  }
  const [dense, sparse] = await Promise.all(
    (["dense", "sparse"] as const).map((mode) =>
      searchMode(context, storeId, query, filter, topK, mode)
    ),
  );
  const byId = new Map([...dense!, ...sparse!].map((hit) => [hit.id, hit]));
  const total = weights.embedding_weight + weights.text_weight;
  const fused = reciprocalRankFusion(
    [dense!.map((hit) => hit.id), sparse!.map((hit) => hit.id)],
    { weights: [weights.embedding_weight, weights.text_weight] },
  );
  const best = total / (DEFAULT_RRF_K + 1);
  return fused.slice(0, topK).map((item) => ({
    ...byId.get(item.id)!,
    score: best > 0 ? Math.min(1, item.rrf_score / best) : 0,
  }));
}

/** How many variations `rewrite_query` asks RAG-Fusion for, beside the query itself. */
const REWRITE_VARIATIONS = 3;

const fuseReplySchema = searchReplySchema.extend({
  queries: z.array(z.object({ text: z.string(), origin: z.string() })),
});

/**
 * `rewrite_query`: RAG-Fusion on the store's namespace (`/v1/fuse`), the
 * model's variations each searched and fused with the query's own ranking;
 * the score is the fused RRF over the most it can be (first everywhere).
 */
async function fuseOnce(
  context: StepContext,
  storeId: string,
  query: string,
  filter: MetadataFilter,
  topK: number,
) {
  const reply = await callStep(resolveStep("FUSE", context), "/v1/fuse", {
    query,
    top_k: topK,
    mode: "hybrid",
    namespace: storeId,
    variations: REWRITE_VARIATIONS,
    ...(Object.keys(filter).length ? { filter } : {}),
  }, { schema: fuseReplySchema, context, timeoutMs: context.config.steps.timeoutMs });
  const best = Math.max(1, reply.queries.length) / (DEFAULT_RRF_K + 1);
  return {
    queries: reply.queries.map((entry) => entry.text),
    hits: (reply.results as SearchHit[]).map((hit) => ({
      ...hit,
      score: Math.min(1, hit.score / best),
    })),
  };
}

/**
 * Each query (or with `rewrite_query`, its RAG-Fusion variations) under each
 * AND-group of the filter, merged: a chunk keeps its best score. Also the
 * queries that were searched, as the page's `search_query` reports them.
 */
async function retrieve(
  context: StepContext,
  storeId: string,
  search: StoreSearch,
  topK: number,
  weights: HybridWeights | undefined,
) {
  const queries = queriesOf(search);
  const groups = siftFilters(search.filters ?? undefined);
  const runs = await Promise.all(
    queries.flatMap((query) =>
      groups.map(async (filter) =>
        search.rewrite_query ? await fuseOnce(context, storeId, query, filter, topK) : {
          queries: [query],
          hits: await searchOnce(context, storeId, query, filter, topK, weights),
        }
      )
    ),
  );
  const best = new Map<string, SearchHit>();
  for (const hit of runs.flatMap((run) => run.hits)) {
    if ((best.get(hit.id)?.score ?? -1) < hit.score) best.set(hit.id, hit);
  }
  return {
    hits: [...best.values()].sort((a, b) => b.score - a.score).slice(0, topK),
    queries: [...new Set(runs.flatMap((run) => run.queries))],
  };
}

/** sift's rerank strategy as the ranker: `/v2/rerank` scores in [0, 1], best first. */
async function rerank(context: StepContext, ranker: string, query: string, hits: SearchHit[]) {
  if (hits.length === 0) return hits;
  const reply = await callStep(resolveStep("RERANK", context), "/v2/rerank", {
    model: ranker,
    query,
    documents: hits.map((hit) => hit.text),
  }, { schema: rerankReplySchema, context, timeoutMs: context.config.steps.timeoutMs });
  return reply.results.flatMap(({ index, relevance_score }) => {
    const hit = hits[index];
    return hit ? [{ ...hit, score: relevance_score }] : [];
  });
}

/**
 * The store's best chunks for a search: its namespace searched (hybrid; with
 * `rewrite_query`, RAG-Fusion's variations too), each query under each
 * AND-group of the filters, merged and scaled to [0, 1]; a sift ranker
 * reranks the candidates; `score_threshold` drops what scores below it. What
 * `/search` pages and `file_search` answers from, with the queries searched.
 */
export async function searchStoreHits(
  context: StepContext,
  storeId: string,
  search: StoreSearch,
  weights?: HybridWeights,
): Promise<{ hits: SearchHit[]; queries: string[] }> {
  await storeRecordOf(context, storeId);
  const ranker = search.ranking_options?.ranker;
  const siftRanker = ranker?.startsWith("sift-") ? ranker : undefined;
  const wanted = search.max_num_results;
  // A reranker gets more candidates than it keeps: what retrieval ranks low it may lift.
  const candidates = siftRanker ? Math.min(50, wanted * 2) : wanted;
  const found = await retrieve(context, storeId, search, candidates, weights);
  let hits = found.hits;
  if (siftRanker) hits = await rerank(context, siftRanker, queriesOf(search).join("\n"), hits);
  const threshold = search.ranking_options?.score_threshold ?? 0;
  return {
    hits: hits.filter((hit) => hit.score >= threshold).slice(0, wanted),
    queries: found.queries,
  };
}

export function queriesOf(search: Pick<StoreSearch, "query">): string[] {
  return typeof search.query === "string" ? [search.query] : search.query;
}

/** A chunk as OpenAI's search result: its file, name, score, attributes and text. */
export function searchResultOf(hit: SearchHit) {
  return {
    file_id: hit.doc_id,
    filename: typeof hit.metadata.source === "string" ? hit.metadata.source : hit.doc_id,
    score: hit.score,
    attributes: attributesOf(hit.metadata),
    content: [{ type: "text" as const, text: hit.text }],
  };
}

/** `POST /v1/vector_stores/{id}/search`: every result on one page. */
export async function searchStore(context: StepContext, storeId: string, search: StoreSearch) {
  const { hits, queries } = await searchStoreHits(context, storeId, search);
  return {
    object: "vector_store.search_results.page" as const,
    search_query: queries,
    data: hits.map(searchResultOf),
    has_more: false,
    next_page: null,
  };
}

export const searchPageSchema = z.object({
  object: z.literal("vector_store.search_results.page"),
  search_query: z.array(z.string()),
  data: z.array(z.object({
    file_id: z.string(),
    filename: z.string(),
    score: z.number().meta({ description: "In [0, 1]: scaled RRF, or the ranker's score" }),
    attributes: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
    content: z.array(z.object({ type: z.literal("text"), text: z.string() })),
  })),
  has_more: z.literal(false),
  next_page: z.null(),
});

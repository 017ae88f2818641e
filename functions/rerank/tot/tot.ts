import { documentDigests, RERANK_RESULT_TTL_SECONDS, resultCacheKey } from "../cache.ts";
import { promptTag } from "../../../shared/llm/prompt.ts";
import { DEFAULT_BATCH_CONCURRENCY } from "../../../core/rerank/batch.ts";
import {
  DEFAULT_DIMENSIONS_PER_LEVEL,
  type TotOptions,
  type TotUnit,
} from "../../../shared/rerank/tot/options.ts";
import type { Readings, RerankDocument } from "../../../shared/rerank/types.ts";
import type { Deps } from "../../../shared/deps.ts";
import { totAgentPrompt } from "../../../prompts/tot-agent.ts";
import { totQualityPrompt } from "../../../prompts/tot-quality.ts";
import { totSimilarityPrompt } from "../../../prompts/tot-similarity.ts";
import { totThresholdPrompt } from "../../../prompts/tot-threshold.ts";
import { noUsage } from "./ask.ts";
import { MAX_TOT_CANDIDATES, toCandidates } from "./candidates.ts";
import { runLevel, type TotLevel } from "./level.ts";
import type { ScoredCandidate } from "./scoring.ts";
import { discardedPassages, rankSurvivors, type TotResultItem, unscoredItems } from "./results.ts";

/** The response's `tree`: what each level chose, set and kept. */
export type TotTree = {
  unit: TotUnit;
  /** Sentence unit: the candidates the levels' `index` points into. */
  sentences?: { document: number; text: string }[];
  levels: TotLevel[];
};

export type TotResponse = {
  results: TotResultItem[];
  discarded: { index: number; reason: string }[];
  tree: TotTree;
  usage: { tokens_in: number; tokens_out: number; llm_calls: number; cached: boolean };
  degraded: boolean;
  /** Scores asked, and those still unreadable after their correction turn (never scored 0). */
  readings?: Readings;
  warnings?: string[];
};

const PROMPT_TAGS = [totAgentPrompt, totQualityPrompt, totSimilarityPrompt, totThresholdPrompt]
  .map(promptTag).join(",");

async function cacheKey(
  deps: Pick<Deps, "llm">,
  request: { query: string; documents: readonly RerankDocument[] },
  options: TotOptions,
): Promise<string> {
  return await resultCacheKey("rerank-tot", {
    query: request.query,
    documents: await documentDigests(request.documents, { metadata: false }),
    options,
    model: deps.llm.model,
    structured: deps.llm.structuredOutputs,
    prompts: PROMPT_TAGS,
  });
}

/**
 * ToT-RAG (paper 003 §3): a two-level tree screens the candidates (passages,
 * or their sentences) breadth first: level 1 on text quality, level 2 on
 * similarity to the query, each on the dimensions its agent picks (two
 * unless `tot.dimensions_per_level` says otherwise) and
 * the thresholds its evaluator sets. Survivors are ordered by mean level-2
 * score, then mean level-1 score, then retrieval order. Results are cached
 * unless a level degraded.
 */
export async function rerankTot(
  deps: Pick<Deps, "llm" | "cache">,
  request: {
    query: string;
    documents: readonly RerankDocument[];
    top_n?: number | undefined;
    tot?: TotOptions | undefined;
  },
  signal?: AbortSignal,
): Promise<TotResponse> {
  const given: TotOptions = request.tot ?? { unit: "passage" };
  // Spelled out, so a request that leaves the count out shares the cache with one that says 2.
  const count = given.dimensions_per_level ?? DEFAULT_DIMENSIONS_PER_LEVEL;
  const options: TotOptions = { ...given, dimensions_per_level: count };
  const topN = request.top_n ?? Number.POSITIVE_INFINITY;
  const key = await cacheKey(deps, request, options);
  const hit = await deps.cache.get<Omit<TotResponse, "usage">>(key);
  if (hit) {
    return { ...hit, results: hit.results.slice(0, topN), usage: { ...noUsage(), cached: true } };
  }
  const { candidates, skipped } = toCandidates(request.documents, options.unit);
  const usage = noUsage();
  const common = { query: request.query, concurrency: DEFAULT_BATCH_CONCURRENCY };
  const levels: TotLevel[] = [];
  const warnings = skipped > 0
    ? [`${skipped} sentences past the first ${MAX_TOT_CANDIDATES} were not screened`]
    : [];
  const dropped = new Map<number, string>();
  let survivors: ScoredCandidate[] = [];
  const unscored: ScoredCandidate[] = [];
  let unreadable = 0;
  const firstScores = new Map<number, Record<string, number>>();
  if (candidates.length > 0) {
    const first = await runLevel(
      deps.llm,
      {
        ...common,
        kind: "quality",
        label: "level 1",
        candidates,
        pinned: options.dimensions?.level1,
        count,
        models: options.models,
      },
      usage,
      signal,
    );
    const second = await runLevel(
      deps.llm,
      {
        ...common,
        kind: "similarity",
        label: "level 2",
        candidates: first.kept.map((entry) => entry.candidate),
        pinned: options.dimensions?.level2,
        count,
        models: options.models,
      },
      usage,
      signal,
    );
    levels.push(first.level, second.level);
    warnings.push(...first.warnings, ...second.warnings);
    for (const [index, reason] of [...first.dropped, ...second.dropped]) dropped.set(index, reason);
    for (const entry of first.kept) firstScores.set(entry.candidate.index, entry.scores);
    survivors = second.kept;
    unscored.push(...first.unscored, ...second.unscored);
    unreadable = first.unreadable + second.unreadable;
  }
  const [level1, level2] = levels.map((level) => level.dimensions);
  const results = [
    ...rankSurvivors(survivors, {
      unit: options.unit,
      documents: request.documents,
      firstScores: (entry) => firstScores.get(entry.candidate.index) ?? {},
      level1: level1 ?? [],
      level2: level2 ?? [],
    }),
    ...unscoredItems(unscored, { unit: options.unit, documents: request.documents }),
  ];
  const full: Omit<TotResponse, "usage"> = {
    results,
    discarded: discardedPassages(options.unit, request.documents.length, candidates, {
      dropped,
      kept: results,
      skipped: skipped > 0,
    }),
    tree: {
      unit: options.unit,
      ...(options.unit === "sentence"
        ? { sentences: candidates.map(({ document, text }) => ({ document, text })) }
        : {}),
      levels,
    },
    degraded: levels.some((level) => level.degraded),
    readings: {
      asked: levels.reduce(
        (sum, level) => sum + level.candidates.length * level.dimensions.length,
        0,
      ),
      unreadable,
    },
    ...(warnings.length ? { warnings } : {}),
  };
  if (!full.degraded) await deps.cache.set(key, full, { ttlSeconds: RERANK_RESULT_TTL_SECONDS });
  return { ...full, results: full.results.slice(0, topN), usage: { ...usage, cached: false } };
}

import type { Pipeline } from "../../shared/pipeline.ts";
import { variantPipeline } from "../../functions/evaluate/variants.ts";

/**
 * The grid `deno task eval --dataset <BEIR folder>` runs: every strategy
 * under every retrieval mode. A strategy is an evaluation variant's
 * strategy part, with options after colons: `item:A_r`,
 * `item:A_s:pointwise:implicit`, `tot:sentence:cut3`. A mode is `sparse`
 * (BM25), `dense` or `hybrid`, optionally `+fusion` (RAG-Fusion's four query
 * variations fused by RRF): RAGElo's retriever grid.
 */
export const DEFAULT_STRATEGIES = [
  "none",
  "relevance",
  "one-turn",
  "two-turn",
  "item:AR_s",
  "item:A_s",
  // ITEM's A_r ranks the whole list in one prompt, RankGPT's listwise form.
  "item:A_r",
  "tot",
] as const;

export const DEFAULT_MODES = [
  "sparse",
  "dense",
  "hybrid",
  "sparse+fusion",
  "dense+fusion",
  "hybrid+fusion",
] as const;

export type GridCell = { strategy: string; mode: string; pipeline: Pipeline };

/**
 * One grid cell's pipeline: the variant `<strategy>@<mode>`, retrieving
 * `topK` and reranking them all, `keep` going on to the answer (`none`
 * retrieves `topK` too, so every ranking is scored as deep).
 */
export function cellPipeline(
  strategy: string,
  mode: string,
  settings: { namespace: string; topK: number; keep: number },
): Pipeline {
  if (!/^(sparse|dense|hybrid)(\+fusion)?$/.test(mode)) {
    throw new Error(`--modes: "${mode}" is not a mode; use sparse, dense, hybrid, each +fusion`);
  }
  if (/[@+]/.test(strategy)) {
    throw new Error(`--strategies: "${strategy}": give the retrieval mode with --modes`);
  }
  try {
    return variantPipeline(`${strategy}@${mode}`, settings.namespace, {
      topK: settings.topK,
      keep: settings.keep,
      rankAll: true,
    });
  } catch (error) {
    throw new Error(`--strategies: ${(error as Error).message.replace(/^variants: /, "")}`);
  }
}

/** Every strategy × mode, strategies outermost, names checked before anything runs. */
export function gridCells(
  strategies: readonly string[],
  modes: readonly string[],
  settings: { namespace: string; topK: number; keep: number },
): GridCell[] {
  return strategies.flatMap((strategy) =>
    modes.map((mode) => ({ strategy, mode, pipeline: cellPipeline(strategy, mode, settings) }))
  );
}

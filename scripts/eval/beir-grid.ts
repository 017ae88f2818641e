import type { Pipeline } from "../../shared/pipeline.ts";
import { DEFAULT_BATCH_SIZE } from "../../shared/rerank/batch.ts";
import {
  ITEM_DEFAULT_ITERATIONS,
  ITEM_VARIANTS,
  type ItemOptions,
} from "../../shared/rerank/item-options.ts";
import { TOT_UNITS, type TotOptions } from "../../shared/rerank/tot/options.ts";
import type { RerankStrategy } from "../../shared/rerank/types.ts";
import type { SearchMode } from "../../shared/vector/port.ts";

/**
 * The grid `deno task eval --dataset <BEIR folder>` runs: every strategy
 * under every retrieval mode. A strategy is a name with options after
 * colons: `item:A_r`, `item:A_s:pointwise:implicit`, `tot:sentence`.
 * A mode is `sparse` (BM25), `dense` or `hybrid`, optionally `+fusion`
 * (RAG-Fusion's four query variations fused by RRF): RAGElo's grid.
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

const MODES: readonly SearchMode[] = ["sparse", "dense", "hybrid"];
const BASES: readonly RerankStrategy[] = [
  "none",
  "relevance",
  "one-turn",
  "two-turn",
  "two-turn-relevance",
  "item",
  "tot",
];
const FUSION_VARIATIONS = 4;

export type GridCell = { strategy: string; mode: string; pipeline: Pipeline };

function itemOptions(options: string[], spec: string): ItemOptions {
  const item: ItemOptions = {
    variant: "AR_s",
    answer: "explicit",
    judgment: "listwise",
    m: ITEM_DEFAULT_ITERATIONS,
    start: "all",
  };
  for (const option of options) {
    if ((ITEM_VARIANTS as readonly string[]).includes(option)) {
      item.variant = option as ItemOptions["variant"];
    } else if (option === "explicit" || option === "implicit") item.answer = option;
    else if (option === "listwise" || option === "pointwise") item.judgment = option;
    else if (option === "top5") item.start = "top5";
    else if (/^m[1-5]$/.test(option)) item.m = Number(option.slice(1));
    else {
      throw new Error(
        `--strategies: "${spec}": item takes ${
          ITEM_VARIANTS.join(", ")
        }, explicit, implicit, listwise, pointwise, top5, m1-m5`,
      );
    }
  }
  if (item.judgment === "pointwise" && item.variant !== "A_s") {
    throw new Error(`--strategies: "${spec}": pointwise judgments need variant A_s`);
  }
  return item;
}

function totOptions(options: string[], spec: string): { tot: TotOptions; cut?: number } {
  const tot: TotOptions = { unit: "passage" };
  let cut: number | undefined;
  for (const option of options) {
    if ((TOT_UNITS as readonly string[]).includes(option)) tot.unit = option as TotOptions["unit"];
    else if (/^cut\d+$/.test(option) && Number(option.slice(3)) >= 1) cut = Number(option.slice(3));
    else {
      throw new Error(`--strategies: "${spec}": tot takes ${TOT_UNITS.join(", ")}, cut<n>`);
    }
  }
  return { tot, ...(cut !== undefined ? { cut } : {}) };
}

/**
 * One grid cell's pipeline: retrieve `topK` with the mode, then rerank them
 * all (`keep` passages go on to the answer; ToT keeps its survivors unless
 * `tot:cut<n>` asks for a cut).
 */
export function cellPipeline(
  strategySpec: string,
  modeSpec: string,
  settings: { namespace: string; topK: number; keep: number },
): Pipeline {
  const [mode, suffix, ...rest] = modeSpec.split("+");
  if (!MODES.includes(mode as SearchMode) || rest.length > 0 || (suffix && suffix !== "fusion")) {
    throw new Error(
      `--modes: "${modeSpec}" is not a mode; use sparse, dense, hybrid, each +fusion`,
    );
  }
  const [base, ...options] = strategySpec.split(":");
  if (!BASES.includes(base as RerankStrategy)) {
    throw new Error(`--strategies: "${strategySpec}" is not a strategy; use ${BASES.join(", ")}`);
  }
  if (options.length > 0 && base !== "item" && base !== "tot") {
    throw new Error(`--strategies: "${strategySpec}": only item and tot take options`);
  }
  const strategy = base as RerankStrategy;
  const tot = strategy === "tot" ? totOptions(options, strategySpec) : undefined;
  return {
    retrieval: {
      mode: mode as SearchMode,
      top_k: settings.topK,
      fusion: suffix === "fusion" ? FUSION_VARIATIONS : 0,
    },
    rerank: {
      strategy,
      top_n: tot ? tot.cut ?? settings.topK : settings.keep,
      batch_size: DEFAULT_BATCH_SIZE,
      explain: false,
      ...(strategy === "item" ? { item: itemOptions(options, strategySpec) } : {}),
      ...(tot ? { tot: tot.tot } : {}),
    },
    namespace: settings.namespace,
    sequential: false,
  };
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

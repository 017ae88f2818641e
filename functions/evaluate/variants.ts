import type { Pipeline } from "../../shared/pipeline.ts";
import { InvalidRequestError } from "../../shared/errors.ts";
import { DEFAULT_BATCH_SIZE } from "../../shared/rerank/batch.ts";
import type { RerankStrategy } from "../../shared/rerank/types.ts";
import {
  ITEM_DEFAULT_ITERATIONS,
  ITEM_VARIANTS,
  type ItemOptions,
} from "../../shared/rerank/item-options.ts";
import { TOT_UNITS, type TotOptions } from "../../shared/rerank/tot/options.ts";
import type { SearchMode } from "../../shared/vector/port.ts";
import type { Variant } from "./types.ts";

/** The rerank strategies a variant may name; `none` keeps retrieval's top 3. */
export const BASE_VARIANTS = [
  "none",
  "one-turn",
  "two-turn",
  "relevance",
  "two-turn-relevance",
  "item",
  "tot",
] as const satisfies readonly RerankStrategy[];

export type BaseVariant = (typeof BASE_VARIANTS)[number];

/** RAG-Fusion's query variations when a variant ends in `+fusion`. */
export const FUSION_VARIATIONS = 4;
/** REBEL's setup: retrieve 10, keep 3 (`none` retrieves 3 and keeps them). */
const RERANK_TOP_K = 10;
const TOP_N = 3;

/** The retrieval modes of RAGElo's grid: BM25, dense (KNN) and hybrid. */
export const VARIANT_MODES = ["sparse", "dense", "hybrid"] as const satisfies readonly SearchMode[];

/** Every plain name `variantPipeline` accepts (options and `@mode` come on top). */
export const VARIANT_NAMES: readonly string[] = BASE_VARIANTS.flatMap((
  name,
) => [name, `${name}+fusion`]);

const GRAMMAR = `use ${BASE_VARIANTS.join(", ")}, with options after colons ` +
  `(item:A_s|AR_s|A_r:explicit|implicit:listwise|pointwise:top5:m1-m5, ` +
  `tot:passage|sentence:cut<n>), optionally @sparse|dense|hybrid, then optionally +fusion`;

function notAVariant(name: string, why = ""): never {
  throw new InvalidRequestError(`variants: "${name}" is not a variant${why}; ${GRAMMAR}`);
}

function itemOptionsOf(options: readonly string[], name: string): ItemOptions {
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
    else notAVariant(name, ` (item has no option "${option}")`);
  }
  if (item.judgment === "pointwise" && item.variant !== "A_s") {
    notAVariant(name, " (pointwise judgments need item variant A_s)");
  }
  return item;
}

function totOptionsOf(options: readonly string[], name: string) {
  const tot: TotOptions = { unit: "passage" };
  let cut: number | undefined;
  for (const option of options) {
    if ((TOT_UNITS as readonly string[]).includes(option)) tot.unit = option as TotOptions["unit"];
    else if (/^cut[1-9]\d*$/.test(option)) cut = Number(option.slice(3));
    else notAVariant(name, ` (tot has no option "${option}")`);
  }
  return { tot, cut };
}

/** How deep a variant retrieves and how much it keeps; the evaluation's defaults are REBEL's. */
export type VariantSettings = {
  /** Passages retrieved ahead of a rerank. Default 10. */
  topK?: number;
  /** Passages the answer is given. Default 3. */
  keep?: number;
  /**
   * `none` retrieves `topK` and keeps `keep` (a ranking to score as deep as
   * the others'), instead of retrieving just `keep`.
   */
  rankAll?: boolean;
};

/**
 * The pipeline a variant name stands for: `<strategy>[:option...][@mode][+fusion]`.
 * Hybrid retrieval unless `@sparse` (BM25) or `@dense`; the named rerank
 * strategy over the top 10, keeping 3 (ToT keeps every survivor unless
 * `tot:cut<n>`); `+fusion` adds four query variations (RAG-Fusion).
 *
 * @example
 * variantPipeline("one-turn+fusion", "docs").retrieval; // {mode: "hybrid", top_k: 10, fusion: 4}
 * variantPipeline("item:A_r@sparse", "docs").rerank?.item?.variant; // "A_r"
 */
export function variantPipeline(
  name: string,
  namespace: string,
  settings: VariantSettings = {},
): Pipeline {
  const [head = "", suffix, ...rest] = name.trim().split("+");
  if (rest.length > 0 || (suffix !== undefined && suffix !== "fusion")) notAVariant(name);
  const [spec = "", mode = "hybrid", ...extra] = head.split("@");
  if (extra.length > 0 || !(VARIANT_MODES as readonly string[]).includes(mode)) notAVariant(name);
  const [base, ...options] = spec.split(":");
  if (!BASE_VARIANTS.includes(base as BaseVariant)) notAVariant(name);
  const strategy = base as BaseVariant;
  if (options.length > 0 && strategy !== "item" && strategy !== "tot") {
    notAVariant(name, " (only item and tot take options)");
  }
  const topK = settings.topK ?? RERANK_TOP_K;
  const keep = settings.keep ?? TOP_N;
  const fusion = suffix === "fusion" ? FUSION_VARIATIONS : 0;
  const retrieval = { mode: mode as SearchMode, fusion };
  if (strategy === "none" && !settings.rankAll) {
    return { retrieval: { ...retrieval, top_k: keep }, namespace, sequential: false };
  }
  const tot = strategy === "tot" ? totOptionsOf(options, name) : undefined;
  return {
    retrieval: { ...retrieval, top_k: topK },
    rerank: {
      strategy,
      // ToT-RAG keeps every survivor of its tree (paper 003 §3.3) unless a cut is asked for.
      top_n: tot ? tot.cut ?? topK : keep,
      batch_size: DEFAULT_BATCH_SIZE,
      explain: false,
      ...(strategy === "item" ? { item: itemOptionsOf(options, name) } : {}),
      ...(tot ? { tot: tot.tot } : {}),
    },
    namespace,
    sequential: false,
  };
}

/** Parses `"none,one-turn"` (or a list) into distinct variants, in the order given. */
export function parseVariants(list: string | readonly string[], namespace: string): Variant[] {
  const names = (typeof list === "string" ? list.split(",") : [...list])
    .map((name) => name.trim())
    .filter(Boolean);
  if (names.length === 0) throw new InvalidRequestError("variants: name at least one variant");
  const unique = [...new Set(names)];
  return unique.map((name) => ({ name, pipeline: variantPipeline(name, namespace) }));
}

/** Every unordered pair of variants, in a stable order: (0,1), (0,2), ... (1,2), ... */
export function variantPairs<T>(variants: readonly T[]): [T, T][] {
  const pairs: [T, T][] = [];
  for (let i = 0; i < variants.length; i++) {
    for (let j = i + 1; j < variants.length; j++) pairs.push([variants[i]!, variants[j]!]);
  }
  return pairs;
}

/**
 * The pairs one question plays when only `gamesPerQuery` of them are wanted:
 * a window that rotates with the question's position, so across questions
 * every pair is played about equally often.
 */
export function pairsForQuestion<T>(
  pairs: readonly T[],
  gamesPerQuery: number,
  questionIndex: number,
): T[] {
  if (gamesPerQuery >= pairs.length) return [...pairs];
  const start = (questionIndex * gamesPerQuery) % pairs.length;
  return Array.from({ length: gamesPerQuery }, (_, i) => pairs[(start + i) % pairs.length]!);
}

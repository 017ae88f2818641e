import type { Pipeline } from "../../shared/pipeline.ts";
import { InvalidRequestError } from "../../shared/errors.ts";
import { DEFAULT_BATCH_SIZE } from "../../shared/rerank/types.ts";
import { rerankStrategy, rerankStrategyNames } from "../../shared/rerank/strategies.ts";
import type { SearchMode } from "../../shared/vector/port.ts";
import type { Variant } from "./types.ts";

/** The rerank strategies a variant may name (`none` keeps retrieval's top 3): every one defined. */
export function baseVariants(): string[] {
  return rerankStrategyNames();
}

/** RAG-Fusion's query variations when a variant ends in `+fusion`. */
export const FUSION_VARIATIONS = 4;
/** REBEL's setup: retrieve 10, keep 3 (`none` retrieves 3 and keeps them). */
const RERANK_TOP_K = 10;
const TOP_N = 3;

/** The retrieval modes of RAGElo's grid: BM25, dense (KNN) and hybrid. */
export const VARIANT_MODES = ["sparse", "dense", "hybrid"] as const satisfies readonly SearchMode[];

/** Every plain name `variantPipeline` accepts (options and `@mode` come on top). */
export function variantNames(): string[] {
  return baseVariants().flatMap((name) => [name, `${name}+fusion`]);
}

function grammar(): string {
  const options = rerankStrategyNames()
    .flatMap((name) => rerankStrategy(name)?.variantGrammar ?? []);
  return `use ${baseVariants().join(", ")}, with options after colons ` +
    `(${options.join(", ")}), optionally @sparse|dense|hybrid, then optionally +fusion`;
}

function notAVariant(name: string, why = ""): never {
  throw new InvalidRequestError(`variants: "${name}" is not a variant${why}; ${grammar()}`);
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
  const [base = "", ...options] = spec.split(":");
  const strategy = rerankStrategy(base);
  if (!strategy) notAVariant(name);
  const withOptions: { options?: Record<string, unknown>; cut?: number } | string =
    strategy.variantOptions
      ? strategy.variantOptions(options)
      : options.length > 0
      ? ` (only ${
        baseVariants().filter((other) => rerankStrategy(other)?.variantOptions).join(" and ")
      } take options)`
      : {};
  if (typeof withOptions === "string") {
    notAVariant(name, withOptions.startsWith(" ") ? withOptions : ` (${withOptions})`);
  }
  const topK = settings.topK ?? RERANK_TOP_K;
  const keep = settings.keep ?? TOP_N;
  const fusion = suffix === "fusion" ? FUSION_VARIATIONS : 0;
  const retrieval = { mode: mode as SearchMode, fusion };
  if (!strategy.usesModel && !settings.rankAll) {
    return { retrieval: { ...retrieval, top_k: keep }, namespace, sequential: false };
  }
  return {
    retrieval: { ...retrieval, top_k: topK },
    rerank: {
      strategy: strategy.name as NonNullable<Pipeline["rerank"]>["strategy"],
      // ToT-RAG keeps every survivor of its tree (paper 003 §3.3) unless a cut is asked for.
      top_n: withOptions.cut ?? (strategy.keepsAll ? topK : keep),
      batch_size: DEFAULT_BATCH_SIZE,
      explain: false,
      ...(strategy.optionsField && withOptions.options
        ? { [strategy.optionsField]: withOptions.options }
        : {}),
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

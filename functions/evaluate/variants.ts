import type { Pipeline } from "../../shared/pipeline.ts";
import { InvalidRequestError } from "../../shared/errors.ts";
import { DEFAULT_BATCH_SIZE } from "../../shared/rerank/batch.ts";
import type { RerankStrategy } from "../../shared/rerank/types.ts";
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

/** Every name `variantPipeline` accepts. */
export const VARIANT_NAMES: readonly string[] = BASE_VARIANTS.flatMap((
  name,
) => [name, `${name}+fusion`]);

/**
 * The pipeline a variant name stands for: hybrid retrieval, then the named
 * rerank strategy (top 10 → 3), with `+fusion` adding four query variations.
 *
 * @example
 * variantPipeline("one-turn+fusion", "docs").retrieval; // {mode: "hybrid", top_k: 10, fusion: 4}
 */
export function variantPipeline(name: string, namespace: string): Pipeline {
  const [base, suffix, ...rest] = name.trim().split("+");
  if (
    !BASE_VARIANTS.includes(base as BaseVariant) || rest.length > 0 ||
    (suffix !== undefined && suffix !== "fusion")
  ) {
    throw new InvalidRequestError(
      `variants: "${name}" is not a variant; use ${
        BASE_VARIANTS.join(", ")
      }, each optionally +fusion`,
    );
  }
  const strategy = base as BaseVariant;
  const fusion = suffix === "fusion" ? FUSION_VARIATIONS : 0;
  if (strategy === "none") {
    return {
      retrieval: { mode: "hybrid", top_k: TOP_N, fusion },
      namespace,
      sequential: false,
    };
  }
  return {
    retrieval: { mode: "hybrid", top_k: RERANK_TOP_K, fusion },
    // ToT-RAG keeps every survivor of its tree (paper 003 §3.3); the others keep REBEL's 3.
    rerank: {
      strategy,
      top_n: strategy === "tot" ? RERANK_TOP_K : TOP_N,
      batch_size: DEFAULT_BATCH_SIZE,
      explain: false,
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

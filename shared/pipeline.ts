import { z } from "zod";
import { LIMITS } from "./limits.ts";
import { DEFAULT_BATCH_SIZE } from "./rerank/types.ts";
import { CROSS_ENCODER_MODELS } from "./rerank/cross-encoder.ts";
import { itemOptionsSchema } from "./rerank/item-options.ts";
import { checkStrategyFit, defaultTopN, rerankStrategySchema } from "./rerank/strategies.ts";
import { totOptionsSchema } from "./rerank/tot/options.ts";
import {
  metadataFilterSchema,
  namespaceSchema,
  searchModeSchema,
  topKSchema,
  withoutReservedKeys,
} from "./schemas.ts";

/**
 * One pipeline's settings, as `POST /v1/query` takes them (`pipeline`), as
 * the chat presets and MCP's ask tool write them and as the evaluation's
 * variants name them: retrieval (with RAG-Fusion or not), an optional
 * rerank, the namespace and filter. The schema is the one source; the type
 * is what it parses to.
 */
export const pipelineSchema = z.strictObject({
  retrieval: z.strictObject({
    mode: searchModeSchema.default("hybrid"),
    /** Defaults to 5, or 10 when a rerank step follows (the REBEL setup: retrieve 10, keep 3). */
    top_k: topKSchema.optional(),
    fusion: z.union([
      z.boolean().transform((on) => (on ? 4 : 0)),
      z.number().int().min(0).max(LIMITS.queryVariations),
      z.strictObject({ variations: z.number().int().min(0).max(LIMITS.queryVariations).default(4) })
        .transform((fusion) => fusion.variations),
    ], { error: "must be true, false, a number of variations, or {variations}" }).default(0),
  }).prefault({}),
  rerank: z.strictObject({
    strategy: rerankStrategySchema(),
    /** Default 3 (REBEL's keep-3); strategy tot keeps every survivor unless a cut is asked for. */
    top_n: z.number().int().min(1).max(LIMITS.topK).optional(),
    batch_size: z.number().int().min(1).max(LIMITS.rerankBatchSize).default(DEFAULT_BATCH_SIZE),
    explain: z.boolean().default(false),
    /** Default 0.5 per criterion (REBEL); `"rubric"`: a generated rubric's own weights. */
    weights: withoutReservedKeys(
      z.union([
        z.number().min(0).max(2),
        z.record(z.string(), z.number().min(0).max(2)),
        z.literal("rubric"),
      ]),
      "is a reserved name, not a criterion",
    ).optional(),
    /** Strategy item's options (ITEM): variant, answer, judgment, m, answer_stop. */
    item: itemOptionsSchema.optional(),
    /** Strategy tot's options (ToT-RAG): pinned dimensions per level, passage or sentence unit. */
    tot: totOptionsSchema.optional(),
    /** A cross-encoder first stage (Workers AI) keeps `top_n` of the retrieved before the LLM. */
    prefilter: z.strictObject({
      model: z.enum(CROSS_ENCODER_MODELS, {
        error: `must be one of ${CROSS_ENCODER_MODELS.join(", ")}`,
      }),
      top_n: z.number().int().min(1).max(LIMITS.topK),
    }).optional(),
  }).superRefine(checkStrategyFit()).optional(),
  namespace: namespaceSchema,
  filter: metadataFilterSchema.optional(),
  /** Runs every step one after another: a baseline for measuring the concurrent pipeline. */
  sequential: z.boolean().default(false),
}).transform(({ retrieval, rerank, ...pipeline }) => ({
  ...pipeline,
  retrieval: { ...retrieval, top_k: retrieval.top_k ?? (rerank ? 10 : 5) },
  // ToT-RAG keeps what passes both levels' thresholds (paper 003 §3.3): no cut of its own.
  ...(rerank
    ? { rerank: { ...rerank, top_n: rerank.top_n ?? defaultTopN(rerank.strategy, LIMITS.topK) } }
    : {}),
}));

export type Pipeline = z.output<typeof pipelineSchema>;

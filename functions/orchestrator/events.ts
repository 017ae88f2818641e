import { z } from "zod";
import {
  answerDeltaSchema,
  answerEndSchema,
  discardedSchema,
  doneSchema,
  fusedHitSchema,
  queryVariationSchema,
  rerankResultSchema,
  rubricBodySchema,
  searchHitSchema,
  streamErrorSchema,
} from "../../shared/responses.ts";
import { ITEM_STOP_REASONS, itemIterationSchema } from "../../shared/rerank/item-options.ts";
import { totResultFields, totTreeSchema } from "../../shared/rerank/tot/schema.ts";

/** The events of `POST /v1/query`, by name, each with the JSON its `data:` line holds. */
export const QUERY_EVENTS = {
  "retrieval-end": z.object({
    queries: z.array(queryVariationSchema),
    results: z.array(z.union([fusedHitSchema, searchHitSchema])),
    degraded: z.literal(true).optional(),
    reason: z.string().optional().meta({
      description: "Why retrieval degraded: BM25 alone (embeddings failed), or no variations",
    }),
  }),
  "rubric-end": z.object({ rubric: rubricBodySchema, degraded: z.boolean().optional() }),
  "rerank-end": z.object({
    results: z.array(rerankResultSchema.extend({
      doc_id: z.string().optional(),
      title: z.string().optional(),
      ...totResultFields,
    })),
    discarded: z.array(discardedSchema),
    degraded: z.boolean(),
    warnings: z.array(z.string()).optional(),
    /** Strategy item: the judging aids; the pseudo-answers are never the pipeline's answer. */
    iterations: z.array(itemIterationSchema).optional(),
    stop_reason: z.enum(ITEM_STOP_REASONS).optional(),
    /** Strategy tot: each level's dimensions, thresholds and candidates. */
    tree: totTreeSchema.optional(),
  }),
  "answer-delta": answerDeltaSchema,
  "answer-end": answerEndSchema,
  usage: z.object({
    steps: z.array(z.object({
      name: z.string(),
      started_ms: z.number(),
      ended_ms: z.number(),
      tokens_in: z.number().int(),
      tokens_out: z.number().int(),
      via: z.enum(["in-process", "binding", "http"]),
      cost_usd: z.number().nullable().meta({
        description: "USD at the price table's rates (docs/tracing.md); null: no known price",
      }),
    })),
    total_ms: z.number(),
    cost_usd: z.number().nullable().meta({ description: "The steps' sum; null if any is unknown" }),
  }),
  error: streamErrorSchema,
  done: doneSchema,
};

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

/** The events of `POST /v1/query`, by name, each with the JSON its `data:` line holds. */
export const QUERY_EVENTS = {
  "retrieval-end": z.object({
    queries: z.array(queryVariationSchema),
    results: z.array(z.union([fusedHitSchema, searchHitSchema])),
    degraded: z.literal(true).optional(),
  }),
  "rubric-end": z.object({ rubric: rubricBodySchema, degraded: z.boolean().optional() }),
  "rerank-end": z.object({
    results: z.array(rerankResultSchema.extend({
      doc_id: z.string().optional(),
      title: z.string().optional(),
    })),
    discarded: z.array(discardedSchema),
    degraded: z.boolean(),
    warnings: z.array(z.string()).optional(),
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
    })),
    total_ms: z.number(),
  }),
  error: streamErrorSchema,
  done: doneSchema,
};

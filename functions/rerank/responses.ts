import { z } from "zod";
import { discardedSchema, rerankResultSchema, rubricBodySchema } from "../../shared/responses.ts";

/** `POST /v1/rerank`. */
export const rerankResponseSchema = z.object({
  results: z.array(rerankResultSchema).meta({ description: "Best first, at most `top_n`" }),
  discarded: z.array(discardedSchema).meta({
    description: "Documents below the rubric's relevance threshold",
  }),
  rubric: rubricBodySchema.optional(),
  usage: z.object({
    tokens_in: z.number().int(),
    tokens_out: z.number().int(),
    llm_calls: z.number().int(),
    cached: z.boolean(),
  }),
  degraded: z.boolean().meta({
    description: "True when a batch kept retrieval order because its scoring failed",
  }),
  warnings: z.array(z.string()).optional(),
});

/** `POST /v2/rerank`: Cohere v2's shape. */
export const cohereRerankResponseSchema = z.object({
  id: z.string(),
  results: z.array(z.object({
    index: z.number().int(),
    relevance_score: z.number().min(0).max(1),
  })),
  meta: z.object({
    api_version: z.object({ version: z.string() }),
    billed_units: z.object({ search_units: z.number() }),
    warnings: z.array(z.string()).optional(),
  }),
});

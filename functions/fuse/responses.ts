import { z } from "zod";
import {
  fusedHitSchema,
  queryVariationSchema,
  searchHitSchema,
  tokenUsageSchema,
} from "../../shared/responses.ts";

/** `POST /v1/search`: best first. */
export const searchResponseSchema = z.object({
  results: z.array(searchHitSchema),
  degraded: z.literal(true).optional().meta({
    description: "Present when embeddings failed and BM25 alone ranked (dense or hybrid asked)",
  }),
  reason: z.string().optional().meta({ description: "Why, when degraded" }),
  usage: tokenUsageSchema.meta({
    description: "The query's embedding tokens, as the provider reported them (0 when the " +
      "embedding was cached, or the provider reports none)",
  }),
});

/** `POST /v1/fuse` with a query: RAG-Fusion. */
export const ragFusionResponseSchema = z.object({
  queries: z.array(queryVariationSchema),
  results: z.array(fusedHitSchema),
  degraded: z.boolean().meta({
    description: "True when no variation could be written, or embeddings failed and BM25 " +
      "alone ranked",
  }),
  reason: z.string().optional().meta({ description: "Why, when degraded" }),
  usage: tokenUsageSchema,
});

/** `POST /v1/fuse` with `rankings`: reciprocal rank fusion alone. */
export const pureFusionResponseSchema = z.object({
  results: z.array(z.object({
    id: z.string(),
    rrf_score: z.number(),
    ranks: z.array(z.number().int().nullable()),
  })),
});

import { z } from "zod";
import {
  QUALITY_DIMENSIONS,
  type QualityDimension,
  SIMILARITY_DIMENSIONS,
  type SimilarityDimension,
} from "./dimensions.ts";

/** What the tree screens: whole passages, or the sentences they split into (as the paper does). */
export const TOT_UNITS = ["passage", "sentence"] as const;
export type TotUnit = typeof TOT_UNITS[number];

function pairOf<const T extends string>(pool: readonly [T, ...T[]]) {
  const name = z.enum(pool, { error: `must be one of ${pool.join(", ")}` });
  return z.tuple([name, name], { error: "must name two dimensions, [a, b]" })
    .refine(([a, b]) => a !== b, { error: "must name two different dimensions" });
}

/**
 * The `tot` options of a rerank request (and of a pipeline's rerank step):
 * pinned dimensions per level, which skip that level's agent call, the
 * unit the tree screens, and a model per dimension (`models`).
 *
 * @example
 * totOptionsSchema.parse({ dimensions: { level2: ["lexical", "semantic"] } }).unit; // "passage"
 */
export const totOptionsSchema = z.strictObject({
  dimensions: z.strictObject({
    level1: pairOf(QUALITY_DIMENSIONS as unknown as [QualityDimension, ...QualityDimension[]])
      .optional().meta({ description: "Text-quality dimensions; the agent picks when absent" }),
    level2: pairOf(
      SIMILARITY_DIMENSIONS as unknown as [SimilarityDimension, ...SimilarityDimension[]],
    ).optional().meta({ description: "Similarity dimensions; the agent picks when absent" }),
  }).optional(),
  unit: z.enum(TOT_UNITS, { error: `must be one of ${TOT_UNITS.join(", ")}` }).default("passage"),
  models: z.partialRecord(
    z.enum([...QUALITY_DIMENSIONS, ...SIMILARITY_DIMENSIONS], {
      error: `must name a dimension: ${
        [...QUALITY_DIMENSIONS, ...SIMILARITY_DIMENSIONS].join(", ")
      }`,
    }),
    z.string().trim().min(1, { error: "must name a model" }).max(200),
  ).optional().meta({
    description: "A model per dimension for its score calls, as the paper screens with several " +
      "(same provider, other model names); the rerank model scores the rest",
  }),
});

export type TotOptions = z.infer<typeof totOptionsSchema>;

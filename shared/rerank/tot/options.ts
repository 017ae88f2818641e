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

/** The paper's number of dimensions per level (§5.2: its sweep over 1-4 did best at 2). */
export const DEFAULT_DIMENSIONS_PER_LEVEL = 2;
/** A level has five dimensions to choose from. */
export const MAX_DIMENSIONS_PER_LEVEL = 5;

/** A pinned list: distinct dimensions of one level (its length is checked against the count). */
function pinnedOf<const T extends string>(pool: readonly [T, ...T[]]) {
  const name = z.enum(pool, { error: `must be one of ${pool.join(", ")}` });
  return z.array(name, { error: "must be a list of dimensions, [a, b]" })
    .min(1, { error: "must name at least one dimension" })
    .max(MAX_DIMENSIONS_PER_LEVEL)
    .refine((names) => new Set(names).size === names.length, {
      error: "must name different dimensions",
    });
}

/**
 * The `tot` options of a rerank request (and of a pipeline's rerank step):
 * how many dimensions each level scores on (`dimensions_per_level`),
 * pinned dimensions per level, which skip that level's agent call, the
 * unit the tree screens, and a model per dimension (`models`).
 *
 * @example
 * totOptionsSchema.parse({ dimensions: { level2: ["lexical", "semantic"] } }).unit; // "passage"
 */
export const totOptionsSchema = z.strictObject({
  dimensions_per_level: z.int({ error: "must be a whole number" })
    .min(1, { error: "must be at least 1" })
    .max(MAX_DIMENSIONS_PER_LEVEL, { error: `must be at most ${MAX_DIMENSIONS_PER_LEVEL}` })
    .default(DEFAULT_DIMENSIONS_PER_LEVEL)
    .meta({
      description: "How many dimensions each level scores on (the agent picks that many; the " +
        "paper's best was 2)",
    }),
  dimensions: z.strictObject({
    level1: pinnedOf(QUALITY_DIMENSIONS as unknown as [QualityDimension, ...QualityDimension[]])
      .optional().meta({
        description:
          "Text-quality dimensions, `dimensions_per_level` of them; the agent picks when absent",
      }),
    level2: pinnedOf(
      SIMILARITY_DIMENSIONS as unknown as [SimilarityDimension, ...SimilarityDimension[]],
    ).optional().meta({
      description:
        "Similarity dimensions, `dimensions_per_level` of them; the agent picks when absent",
    }),
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
}).superRefine((options, context) => {
  // A pinned list is the level's dimensions, so it must be as long as the count.
  for (const level of ["level1", "level2"] as const) {
    const pinned = options.dimensions?.[level];
    if (pinned && pinned.length !== options.dimensions_per_level) {
      context.addIssue({
        code: "custom",
        path: ["dimensions", level],
        message: `must name ${options.dimensions_per_level} dimensions (dimensions_per_level)`,
      });
    }
  }
});

/** The parsed options; `dimensions_per_level` may be left out by code that builds them (2). */
export type TotOptions =
  & Omit<z.infer<typeof totOptionsSchema>, "dimensions_per_level">
  & { dimensions_per_level?: number | undefined };

/**
 * An evaluation variant's ToT options (`tot:sentence:cut5`) as request
 * options and a cut, or why one is not an option.
 */
export function totVariantOptions(
  options: readonly string[],
): { options: TotOptions; cut?: number } | string {
  const tot: TotOptions = { unit: "passage" };
  let cut: number | undefined;
  for (const option of options) {
    if ((TOT_UNITS as readonly string[]).includes(option)) tot.unit = option as TotOptions["unit"];
    else if (/^cut[1-9]\d*$/.test(option)) cut = Number(option.slice(3));
    else return `tot has no option "${option}"`;
  }
  return cut === undefined ? { options: tot } : { options: tot, cut };
}

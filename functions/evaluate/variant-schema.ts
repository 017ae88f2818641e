import { z } from "zod";
import { ITEM_MAX_ITERATIONS, ITEM_VARIANTS } from "../../shared/rerank/item-options.ts";
import { TOT_UNITS } from "../../shared/rerank/tot/options.ts";
import { checkStrategyFit, rerankStrategySchema } from "../../shared/rerank/strategies.ts";
import { VARIANT_MODES, variantNames } from "./variants.ts";

/**
 * A variant of `POST /v1/evaluations` spelled as an object, the same thing
 * as a name (`item:A_r:implicit@sparse+fusion`): a strategy with ITEM's or
 * ToT-RAG's options, a retrieval mode and fusion (RAGElo's grid). Unknown
 * fields are refused by name; the object becomes its name, which is how
 * reports, checkpoints and history know the variant.
 */
export const variantObjectSchema = z.strictObject({
  strategy: rerankStrategySchema(),
  mode: z.enum(VARIANT_MODES, { error: `must be one of ${VARIANT_MODES.join(", ")}` })
    .default("hybrid").meta({ description: "sparse (BM25), dense (KNN) or hybrid" }),
  fusion: z.boolean().default(false).meta({ description: "RAG-Fusion: four query variations" }),
  item: z.strictObject({
    variant: z.enum(ITEM_VARIANTS, { error: `must be one of ${ITEM_VARIANTS.join(", ")}` })
      .optional(),
    answer: z.enum(["explicit", "implicit"], { error: "must be explicit or implicit" }).optional(),
    judgment: z.enum(["listwise", "pointwise"], { error: "must be listwise or pointwise" })
      .optional(),
    m: z.number().int().min(1).max(ITEM_MAX_ITERATIONS).optional(),
    start: z.enum(["all", "top5"], { error: "must be all or top5" }).optional(),
  }).optional(),
  tot: z.strictObject({
    unit: z.enum(TOT_UNITS, { error: `must be one of ${TOT_UNITS.join(", ")}` }).optional(),
    cut: z.number().int().min(1).optional().meta({
      description: "Keep at most this many survivors (default: every survivor)",
    }),
  }).optional(),
}).superRefine(checkStrategyFit()).transform(variantName);

/** An object variant's name. */
export function variantName(variant: {
  strategy: string;
  mode: string;
  fusion: boolean;
  item?: Record<string, string | number | undefined> | undefined;
  tot?: { unit?: string | undefined; cut?: number | undefined } | undefined;
}): string {
  const item = variant.item;
  const options = [
    item?.variant,
    item?.answer,
    item?.judgment,
    item?.m === undefined ? undefined : `m${item.m}`,
    item?.start === "top5" ? "top5" : undefined,
    variant.tot?.unit,
    variant.tot?.cut === undefined ? undefined : `cut${variant.tot.cut}`,
  ].filter((option) => option !== undefined);
  return [variant.strategy, ...options].join(":") +
    (variant.mode === "hybrid" ? "" : `@${variant.mode}`) + (variant.fusion ? "+fusion" : "");
}

/**
 * One entry of the list: a name, or an object checked here so that its
 * errors (an unknown field, a bad mode) are named, not lost in a union's
 * "invalid input".
 */
const variantEntrySchema = z.unknown().transform((value, context) => {
  if (typeof value === "string") return value;
  const parsed = variantObjectSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) context.addIssue(issue as never);
  // The parse fails on the issues above; a stand-in keeps the later checks from adding noise.
  return "invalid";
}).meta({ description: "A variant name, or {strategy, mode?, fusion?, item?, tot?}" });

/** `variants` of `POST /v1/evaluations`: a comma list, or a list of names and objects. */
export const variantsSchema = z.preprocess(
  (value) => typeof value === "string" ? value.split(",") : value,
  z.array(variantEntrySchema, { error: "must be a comma-separated list or an array of variants" }),
)
  .transform((names) => names.map((name) => name.trim()).filter(Boolean))
  .pipe(
    z.array(z.string()).min(1, { error: () => `name at least one of ${variantNames().join(", ")}` })
      .max(10),
  )
  .default(["none", "one-turn"]);

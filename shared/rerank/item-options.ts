import { z } from "zod";

/**
 * ITEM's options and report (paper 002, §3.3): the contract `/v1/rerank`,
 * `/v1/query`'s rerank step and the evaluation variants share. The logic is
 * in `functions/rerank/item/`.
 */

/**
 * `A_s`: answer, then a utility set; `AR_s`: answer, relevance ranking,
 * utility set; `A_r`: answer, utility ranking; `AR_r`: answer, relevance
 * ranking, then a utility ranking of it (paper 002 §3.3: U_t is the first k
 * of a utility ranking; the paper defines AR_r and reports it in Table 5).
 */
export const ITEM_VARIANTS = ["A_s", "AR_s", "A_r", "AR_r"] as const;
export type ItemVariant = (typeof ITEM_VARIANTS)[number];

export const ITEM_STOP_REASONS = ["max_iterations", "unchanged", "answer_converged"] as const;
export type ItemStopReason = (typeof ITEM_STOP_REASONS)[number];

/**
 * A_r's utility set is the first k of its utility ranking (the paper's k, §3.3, B.4); also the size of
 * U_0 under `start: "top5"`.
 */
export const ITEM_UTILITY_K = 5;
/** The paper's m (§6.1) and the most iterations a request may ask for. */
export const ITEM_DEFAULT_ITERATIONS = 3;
export const ITEM_MAX_ITERATIONS = 5;
/** Listwise steps put every document in one prompt; the paper judged 10 to 20. */
export const ITEM_MAX_DOCUMENTS = 100;

export const itemOptionsSchema = z.strictObject({
  variant: z.enum(ITEM_VARIANTS, { error: `must be one of ${ITEM_VARIANTS.join(", ")}` })
    .default("AR_s"),
  answer: z.enum(["explicit", "implicit"], { error: "must be explicit or implicit" })
    .default("explicit"),
  judgment: z.enum(["listwise", "pointwise"], { error: "must be listwise or pointwise" })
    .default("listwise"),
  m: z.number().int().min(1, { error: "must be at least 1" }).max(ITEM_MAX_ITERATIONS, {
    error: `must be at most ${ITEM_MAX_ITERATIONS}`,
  }).default(ITEM_DEFAULT_ITERATIONS).meta({ description: "The most iterations" }),
  start: z.enum(["all", "top5"], { error: "must be all or top5" }).default("all").meta({
    description:
      "U_0, the set the first pseudo-answer is written from: every candidate (the paper's R_0 = D), or the first five",
  }),
  answer_stop: z.number().gt(0, { error: "must be in (0, 1]" }).max(1, {
    error: "must be in (0, 1]",
  }).optional().meta({
    description: "Also stop when the ROUGE-L F1 of two consecutive pseudo-answers reaches this",
  }),
}).superRefine((options, context) => {
  // Rankings and AR's chain of rankings need the whole list in one prompt (paper, Table 1).
  if (options.judgment === "pointwise" && options.variant !== "A_s") {
    context.addIssue({
      code: "custom",
      path: ["judgment"],
      message: `variant ${options.variant} judges listwise only; pointwise needs variant A_s`,
    });
  }
});

export type ItemOptions = z.output<typeof itemOptionsSchema>;

/** One iteration as the response reports it; indices are 0-based into the request's documents. */
export type ItemIteration = {
  /** The pseudo-answer: a judging aid, never the pipeline's answer. */
  answer: string;
  /** AR_s: the relevance ranking; A_r and AR_r: the utility ranking. */
  ranking?: number[];
  utility: number[];
  /** A step's reply was unusable and its previous state was kept. */
  degraded?: true;
};

export const itemIterationSchema = z.object({
  answer: z.string().meta({ description: "The pseudo-answer the judgments were made with" }),
  ranking: z.array(z.number().int()).optional().meta({
    description: "AR_s: the relevance ranking; A_r and AR_r: the utility ranking (0-based indices)",
  }),
  utility: z.array(z.number().int()).meta({
    description: "The utility set, in the model's order (0-based indices)",
  }),
  degraded: z.literal(true).optional(),
});

/**
 * An evaluation variant's ITEM options (`item:A_r:implicit:m2`) as request
 * options, or why one is not an option.
 */
export function itemVariantOptions(options: readonly string[]): { options: ItemOptions } | string {
  const item: ItemOptions = {
    variant: "AR_s",
    answer: "explicit",
    judgment: "listwise",
    m: ITEM_DEFAULT_ITERATIONS,
    start: "all",
  };
  for (const option of options) {
    if ((ITEM_VARIANTS as readonly string[]).includes(option)) {
      item.variant = option as ItemOptions["variant"];
    } else if (option === "explicit" || option === "implicit") item.answer = option;
    else if (option === "listwise" || option === "pointwise") item.judgment = option;
    else if (option === "top5") item.start = "top5";
    else if (/^m[1-5]$/.test(option)) item.m = Number(option.slice(1));
    else return `item has no option "${option}"`;
  }
  if (item.judgment === "pointwise" && item.variant !== "A_s") {
    return "pointwise judgments need item variant A_s";
  }
  return { options: item };
}

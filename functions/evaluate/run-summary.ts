import { z } from "zod";

/*
 * What history keeps of an evaluation run, in a module of its own: history.ts
 * stores and reads these, compare.ts compares two of them, and neither needs
 * the other's work to know the shape.
 */

const intervalSchema = z.object({
  mean: z.number(),
  ci_low: z.number(),
  ci_high: z.number(),
  n: z.number(),
}).nullable();

const metricsSchema = z.object({
  retrieval_precision: intervalSchema,
  answer_similarity: intervalSchema,
  system_quality: z.number().nullable(),
  speed_chars_per_second: z.number(),
  hit_at_k: z.number().nullable(),
  // Absent in runs recorded before these metrics existed (whose `mrr_at_5` meant the
  // kept passages against target_doc): nothing is compared with them.
  target_mrr_at_5: z.number().nullable().optional(),
  mrr_at_5_somewhat: z.number().nullable().optional(),
  elo: z.number().nullable(),
});

/** What history keeps of a run: enough to compare the next one against it. */
export const runSummarySchema = z.object({
  run_id: z.string(),
  dataset: z.string(),
  created_at: z.string(),
  questions: z.number(),
  /** Which questions were asked: runs are compared only over the same set. */
  question_set: z.string(),
  variants: z.record(z.string(), metricsSchema),
});
export type RunSummary = z.infer<typeof runSummarySchema>;
export const historySchema = z.array(runSummarySchema);

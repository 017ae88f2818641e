import { z } from "zod";

const links = {
  status_url: z.string().meta({ description: "`GET` it for status and progress" }),
  report_url: z.string().meta({ description: "The HTML report once done (`?format=json`)" }),
};

const statusSchema = z.enum(["running", "done", "failed"]);

/** `POST /v1/evaluations` → 202. */
export const evaluationStartedSchema = z.object({ id: z.string(), status: statusSchema, ...links });

const intervalSchema = z.looseObject({ mean: z.number(), ci_low: z.number(), ci_high: z.number() });

const judgeCountSchema = z.object({ judged: z.number().int(), excluded: z.number().int() });

/** Per variant: judgments left out of every aggregate, and runs whose pipeline fell back. */
const reliabilitySchema = z.object({
  judges: z.object({
    retrieval: judgeCountSchema,
    similarity: judgeCountSchema,
    answer: judgeCountSchema,
    pairwise: judgeCountSchema,
  }),
  steps: z.object({
    rerank: judgeCountSchema,
    rubric: judgeCountSchema,
    variations: judgeCountSchema,
  }).optional().meta({
    description: "Per pipeline step: values asked of its model (judged) and replies left " +
      "unreadable after one correction (excluded): rerank scores, ITEM judgments, ToT scores, " +
      "the generated rubric, the query variations",
  }),
  degraded_share: z.number().nullable().meta({
    description: "Everything left unread over everything asked: judges' and steps' together",
  }),
  fallbacks: z.object({
    runs: z.number().int(),
    rubric: z.number().int(),
    rerank_order: z.number().int(),
    variations: z.number().int(),
  }),
  fallback_share: z.number().nullable(),
}).meta({
  description: "Judgments and step replies left out (unreadable after a correction), and runs " +
    "that fell back; past EVAL_MAX_DEGRADED_SHARE the verdict names no winner",
});

/** `GET /v1/evaluations/:id`: the summary fields appear once the run is done. */
export const evaluationStatusSchema = z.object({
  id: z.string(),
  status: statusSchema,
  dataset: z.string(),
  variants: z.array(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
  progress: z.object({
    done: z.number().int(),
    total: z.number().int(),
    phase: z.enum(["runs", "judgments", "games"]),
    reused: z.number().int(),
    failed: z.number().int(),
  }).nullable(),
  summary: z.array(z.looseObject({
    variant: z.string(),
    runs: z.number().int(),
    failed: z.number().int(),
    retrieval_precision: intervalSchema.nullable(),
    answer_similarity: intervalSchema.nullable(),
    system_quality: z.number().nullable(),
    speed_chars_per_second: z.number(),
    cost_per_query_usd: z.number().nullable().optional(),
    reliability: reliabilitySchema.optional(),
  })).optional().meta({ description: "Per variant; the HTML report explains each metric" }),
  elo: z.array(z.looseObject({ agent: z.string(), score: z.number() })).optional(),
  first_run: z.boolean().optional(),
  regressions: z.array(z.looseObject({
    variant: z.string(),
    metric: z.string(),
    previous: z.number(),
    current: z.number(),
    rule: z.string(),
  })).optional(),
  error: z.string().optional(),
  ...links,
});

/** `GET /v1/evaluations/:id/report?format=json`: the whole report (`report.json`). */
export const evaluationReportSchema = z.looseObject({
  run_id: z.string(),
  dataset: z.object({ name: z.string(), questions: z.number().int() }),
  created_at: z.string(),
  summary: z.array(z.looseObject({ variant: z.string() })),
  elo: z.array(z.looseObject({ agent: z.string(), score: z.number() })),
  elo_first_order: z.array(z.looseObject({ agent: z.string(), score: z.number() })).optional()
    .meta({ description: "Elo from each game's first-order verdict alone (RAGElo's protocol)" }),
  tie_rates: z.object({
    both_orders: z.number().nullable(),
    first_order: z.number().nullable(),
  }).optional().meta({ description: "The share of tied games under each protocol" }),
  queries: z.array(z.looseObject({})),
});

/** `?format=`: the HTML page (default) or the JSON it is drawn from. */
export const reportQuerySchema = z.object({
  format: z.enum(["html", "json"]).optional().meta({ description: "html (default) or json" }),
});

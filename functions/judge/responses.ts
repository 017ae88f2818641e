import { z } from "zod";
import { tokenUsageSchema } from "../../shared/responses.ts";

const verdictSchema = z.enum(["A", "B", "C"]).meta({ description: "C is a tie" });
const revisedSchema = z.literal(true).optional().meta({
  description: "The judge's reply changed its verdict on the way; its last stated one stands",
});
const degradedSchema = z.boolean().meta({
  description: "True when the model's output was unusable and a fallback stands in",
});

/** `POST /v1/judge/retrieval`. */
export const retrievalJudgmentsSchema = z.object({
  judgments: z.array(z.object({
    index: z.number().int(),
    score: z.union([z.literal(0), z.literal(1), z.literal(2)]).nullable().meta({
      description: "0 not relevant, 1 somewhat, 2 very; null when the judge's reply stayed " +
        "unreadable after one correction, or the judge could not be reached (then degraded)",
    }),
    reason: z.string(),
    degraded: z.literal(true).optional(),
    revised: revisedSchema,
  })),
  precision: z.number().nullable().meta({
    description: "REBEL's retrieval precision: the share judged ≥ 1 among the documents with " +
      "a score; null when none has one",
  }),
  excluded: z.number().int().meta({
    description: "Documents left out of precision: their score is null",
  }),
  degraded: degradedSchema,
  usage: tokenUsageSchema,
});

/** `POST /v1/judge/answer`: each score 0-2. */
export const answerJudgmentSchema = z.object({
  scores: z.object({
    relevance: z.number(),
    accuracy: z.number(),
    completeness: z.number(),
    precision: z.number(),
  }).nullable().meta({
    description: "null when the judge's reply held no readable scores after one correction",
  }),
  reasoning: z.string(),
  revised: revisedSchema,
  degraded: degradedSchema,
  usage: tokenUsageSchema,
});

/** `POST /v1/judge/pairwise`. */
export const pairwiseJudgmentSchema = z.object({
  winner: verdictSchema.nullable().meta({
    description: "C is a tie; null when an order's verdict was unreadable: no game, not a tie",
  }),
  verdicts: z.tuple([verdictSchema.nullable(), verdictSchema.nullable()]).meta({
    description: "[with A first, with B first], both in terms of the original A and B; " +
      "null for an order whose reply stayed unreadable",
  }),
  orders_disagree: z.boolean(),
  reasoning: z.string(),
  revised: revisedSchema,
  degraded: degradedSchema,
  usage: tokenUsageSchema,
});

/** `POST /v1/judge/similarity`. */
export const similarityJudgmentSchema = z.object({
  score: z.number().min(0).max(5).nullable().meta({
    description: "0-5; null when the judge's reply stayed unreadable after one correction",
  }),
  reason: z.string(),
  revised: revisedSchema,
  degraded: degradedSchema,
  usage: tokenUsageSchema,
});

/** `POST /v1/judge/synthetic-queries`. */
export const syntheticQueriesSchema = z.object({
  queries: z.array(z.object({
    question: z.string(),
    passage_index: z.number().int(),
    model: z.string(),
  })),
  degraded: degradedSchema,
  usage: tokenUsageSchema,
});

/** `POST /v1/judge/tournament`: best first. */
export const tournamentResponseSchema = z.object({
  ratings: z.array(z.object({
    agent: z.string(),
    score: z.number().meta({ description: "Mean final rating over the tournaments" }),
    std: z.number(),
    ci_low: z.number(),
    ci_high: z.number(),
    wins: z.number().int(),
    losses: z.number().int(),
    ties: z.number().int(),
  })),
  excluded: z.number().int().meta({
    description: "Games left out of the ratings: their winner was null (an unreadable verdict)",
  }),
});

/** `POST /v1/judge/agreement`. */
export const agreementResponseSchema = z.object({
  kendall_tau_b: z.number().nullable(),
  spearman_rho: z.number().nullable(),
  p_values: z.object({
    kendall_tau_b: z.number().nullable(),
    spearman_rho: z.number().nullable(),
  }).meta({
    description: "Two-sided p-values of no association, as SciPy's kendalltau and spearmanr; " +
      "null where SciPy gives NaN (a constant input, or Spearman with 2 pairs)",
  }),
  bland_altman: z.object({ bias: z.number(), lower: z.number(), upper: z.number() }),
  notes: z.array(z.string()).meta({ description: "Why a correlation is null" }),
  excluded: z.number().int().meta({
    description: "Pairs left out because x or y was null (a judgment with no score)",
  }),
});

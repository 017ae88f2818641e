import { z } from "zod";
import type {
  AnswerEvaluation,
  PairwiseEvaluation,
  RetrievalEvaluation,
  SimilarityEvaluation,
} from "../../shared/judge/types.ts";
import { eloTournament } from "../../shared/metrics/elo.ts";
import { callStep } from "../../shared/steps/call.ts";
import { resolveStep, type StepContext } from "../../shared/steps/transport.ts";
import { runVariantOver } from "./pipeline-run.ts";
import type { EvalSteps, StepCall } from "./steps.ts";

const usageSchema = z.object({ tokens_in: z.number(), tokens_out: z.number() });
const gradeSchema = z.union([z.literal(0), z.literal(1), z.literal(2)]);
const verdictSchema = z.enum(["A", "B", "C"]);

const retrievalSchema = z.object({
  judgments: z.array(z.object({
    index: z.number(),
    score: gradeSchema,
    reason: z.string(),
    degraded: z.literal(true).optional(),
  })),
  precision: z.number(),
  degraded: z.boolean(),
  usage: usageSchema,
});

const answerSchema = z.object({
  scores: z.object({
    relevance: z.number(),
    accuracy: z.number(),
    completeness: z.number(),
    precision: z.number(),
  }),
  reasoning: z.string(),
  degraded: z.boolean(),
  usage: usageSchema,
});

const pairwiseSchema = z.object({
  winner: verdictSchema,
  verdicts: z.tuple([verdictSchema, verdictSchema]),
  orders_disagree: z.boolean(),
  reasoning: z.string(),
  degraded: z.boolean(),
  usage: usageSchema,
});

const similaritySchema = z.object({
  score: z.number(),
  reason: z.string(),
  degraded: z.boolean(),
  usage: usageSchema,
});

/**
 * The real steps, reached like any other composition's: each variant runs
 * through the orchestrator's `/v1/query`, each judgment through the judge
 * function's `/v1/judge/*` routes (in-process in the all-in-one app, or a
 * binding or `STEP_URL_*` away); Elo is arithmetic and runs here.
 */
export function stepsOver(context: StepContext): EvalSteps {
  // A repeated run's calls carry its cache scope, which every step they reach forwards.
  const contextFor = (signal: AbortSignal | undefined, call: StepCall | undefined) => ({
    ...context,
    signal: signal ?? context.signal,
    headers: call?.cacheScope
      ? { ...context.headers, cacheScope: call.cacheScope }
      : context.headers,
  });
  // The schemas check the shape; the judge's own types say which optional fields are absent.
  const judge =
    <T>(path: string, schema: z.ZodType) =>
    async (_deps: unknown, input: unknown, signal?: AbortSignal, call?: StepCall): Promise<T> =>
      await callStep(resolveStep("JUDGE", context), path, input, {
        schema: schema as z.ZodType<T>,
        context: contextFor(signal, call),
        timeoutMs: context.config.steps.timeoutMs,
      });
  return {
    runVariant: (_deps, input, signal, call) =>
      runVariantOver(resolveStep("ORCHESTRATOR", context), contextFor(signal, call), input),
    judgeRetrieval: judge<RetrievalEvaluation>("/v1/judge/retrieval", retrievalSchema),
    judgeAnswer: judge<AnswerEvaluation>("/v1/judge/answer", answerSchema),
    judgePairwise: judge<PairwiseEvaluation>("/v1/judge/pairwise", pairwiseSchema),
    answerSimilarity: judge<SimilarityEvaluation>("/v1/judge/similarity", similaritySchema),
    eloTournament,
  };
}

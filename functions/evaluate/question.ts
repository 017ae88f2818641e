import { toErrorBody } from "../../shared/errors.ts";
import type { Deps } from "../../shared/runtime.ts";
import type { Checkpoints } from "./checkpoint.ts";
import { sharedEvidence, toDocument } from "./evidence.ts";
import type { EvalSteps } from "./steps.ts";
import type {
  EvalPhase,
  EvalQuestion,
  QuestionResult,
  UnitError,
  Variant,
  VariantResult,
} from "./types.ts";

export type UnitOutcome = "computed" | "reused" | "failed";

export type QuestionContext = {
  deps: Deps;
  steps: EvalSteps;
  variants: Variant[];
  checkpoints: Checkpoints;
  signal?: AbortSignal | undefined;
  errors: UnitError[];
  tick(phase: EvalPhase, outcome: UnitOutcome, units?: number): void;
};

/** How many units one question costs: its runs, judgments and games. */
export function unitsPerQuestion(variants: number, hasReference: boolean, games: number): number {
  return variants * (hasReference ? 4 : 3) + games;
}

/** One checkpointed unit; a failure is recorded (never stored) and the evaluation goes on. */
async function attempt<T>(
  context: QuestionContext,
  phase: EvalPhase,
  unit: string,
  compute: () => Promise<T>,
): Promise<T | undefined> {
  context.signal?.throwIfAborted();
  try {
    const { value, cached } = await context.checkpoints.unit(unit, compute);
    context.tick(phase, cached ? "reused" : "computed");
    return value;
  } catch (error) {
    if (context.signal?.aborted) throw context.signal.reason ?? error;
    console.error(`evaluation unit ${unit} failed:`, error);
    context.errors.push({ unit, message: toErrorBody(error).body.error.message });
    context.tick(phase, "failed");
    return undefined;
  }
}

/**
 * One question through every variant, then its judgments (retrieval of the
 * kept passages, similarity to the reference, pointwise answer scores), then
 * its pairwise games. Units a failed run makes impossible count as failed.
 */
export async function evaluateQuestion(
  context: QuestionContext,
  question: EvalQuestion,
  pairs: [string, string][],
): Promise<QuestionResult> {
  const { deps, steps, signal } = context;
  const query = question.question;
  const reference = question.reference_answer ?? undefined;
  const results: Record<string, VariantResult> = {};
  for (const variant of context.variants) {
    const run = await attempt(
      context,
      "runs",
      `run:${question.id}:${variant.name}`,
      () => steps.runVariant(deps, { query, pipeline: variant.pipeline }, signal),
    );
    results[variant.name] = run ? { run } : {};
  }
  for (const variant of context.variants) {
    const result = results[variant.name]!;
    const unit = (kind: string) => `${kind}:${question.id}:${variant.name}`;
    if (!result.run) {
      context.tick("judgments", "failed", reference ? 3 : 2);
      continue;
    }
    const { answer } = result.run;
    const documents = result.run.kept.map(toDocument);
    const retrieval = await attempt(context, "judgments", unit("retrieval"), async () => {
      const { judgments, precision, degraded } = await steps.judgeRetrieval(
        deps,
        { query, documents },
        signal,
      );
      return { judgments, precision, degraded };
    });
    if (retrieval) result.retrieval = retrieval;
    if (reference) {
      const similarity = await attempt(context, "judgments", unit("similarity"), async () => {
        const { score, reason, degraded } = await steps.answerSimilarity(
          deps,
          { query, answer, reference },
          signal,
        );
        return { score, reason, degraded };
      });
      if (similarity) result.similarity = similarity;
    }
    const judged = await attempt(context, "judgments", unit("answer"), async () => {
      const evaluation = await steps.judgeAnswer(deps, {
        query,
        answer,
        documents,
        ...(retrieval ? { judgments: retrieval.judgments } : {}),
      }, signal);
      return { ...evaluation.scores, degraded: evaluation.degraded };
    });
    if (judged) result.answer_scores = judged;
  }
  const games = [];
  for (const [a, b] of pairs) {
    const runA = results[a]?.run;
    const runB = results[b]?.run;
    if (!runA || !runB) {
      context.tick("games", "failed");
      continue;
    }
    const { documents, judgments } = sharedEvidence(results[a]!, results[b]!);
    const game = await attempt(context, "games", `game:${question.id}:${a}:${b}`, async () => {
      const verdict = await steps.judgePairwise(deps, {
        query,
        answer_a: runA.answer,
        answer_b: runB.answer,
        documents,
        ...(judgments ? { judgments } : {}),
      }, signal);
      const { winner, verdicts, orders_disagree } = verdict;
      return { query_id: question.id, a, b, winner, verdicts, orders_disagree };
    });
    if (game) games.push(game);
  }
  return { ...question, variants: results, games };
}

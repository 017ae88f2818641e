import { toErrorBody } from "../../shared/errors.ts";
import type { Deps } from "../../shared/deps.ts";
import type { Checkpoints } from "./checkpoint.ts";
import { judgedPassages, sharedEvidence, splitRetrievalJudgments } from "./evidence.ts";
import type { EvalSteps, StepCall } from "./steps.ts";
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
 * Where run `repetition` (from 1) of a question keeps its units and cached
 * model replies: the first run as before; later ones under `<id>@<n>` and a
 * cache scope of their own, so a repeated run is really run again.
 */
export function repetitionOf(questionId: string, repetition: number) {
  return repetition <= 1
    ? { unitId: questionId, call: {} as StepCall }
    : { unitId: `${questionId}@${repetition}`, call: { cacheScope: `repeat-${repetition}` } };
}

/**
 * One question through every variant, then its judgments (retrieval of the
 * kept passages and of the first five retrieved, similarity to the
 * reference, pointwise answer scores), then its pairwise games. Units a
 * failed run makes impossible count as failed. `repetition` (from 1) is
 * which run of the question this is, when the evaluation repeats questions.
 */
export async function evaluateQuestion(
  context: QuestionContext,
  question: EvalQuestion,
  pairs: [string, string][],
  repetition?: number,
): Promise<QuestionResult> {
  const { deps, steps, signal } = context;
  const query = question.question;
  const reference = question.reference_answer ?? undefined;
  const { unitId, call } = repetitionOf(question.id, repetition ?? 1);
  const numbered = repetition === undefined ? {} : { repetition };
  const results: Record<string, VariantResult> = {};
  for (const variant of context.variants) {
    const run = await attempt(
      context,
      "runs",
      `run:${unitId}:${variant.name}`,
      () => steps.runVariant(deps, { query, pipeline: variant.pipeline }, signal, call),
    );
    results[variant.name] = run ? { run } : {};
  }
  for (const variant of context.variants) {
    const result = results[variant.name]!;
    const unit = (kind: string) => `${kind}:${unitId}:${variant.name}`;
    if (!result.run) {
      context.tick("judgments", "failed", reference ? 3 : 2);
      continue;
    }
    const { answer } = result.run;
    const passages = judgedPassages(result.run);
    const documents = passages.documents.slice(0, passages.kept);
    const retrieval = await attempt(context, "judgments", unit("retrieval"), async () => {
      const evaluation = await steps.judgeRetrieval(
        deps,
        { query, documents: passages.documents },
        signal,
        call,
      );
      return splitRetrievalJudgments(evaluation, passages);
    });
    if (retrieval) result.retrieval = retrieval;
    if (reference) {
      const similarity = await attempt(context, "judgments", unit("similarity"), async () => {
        const { score, reason, degraded } = await steps.answerSimilarity(
          deps,
          { query, answer, reference },
          signal,
          call,
        );
        return { score, reason, degraded };
      });
      if (similarity) result.similarity = similarity;
    }
    const judged = await attempt(context, "judgments", unit("answer"), async () => {
      const evaluation = await steps.judgeAnswer(
        deps,
        {
          query,
          answer,
          documents,
          ...(retrieval ? { judgments: retrieval.judgments } : {}),
        },
        signal,
        call,
      );
      // Checkpoints hold objects: unreadable scores are `unreadable: true`, read back as null.
      return evaluation.scores
        ? { ...evaluation.scores, degraded: evaluation.degraded }
        : { degraded: true, unreadable: true as const };
    });
    if (judged) result.answer_scores = "unreadable" in judged ? null : judged;
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
    const game = await attempt(context, "games", `game:${unitId}:${a}:${b}`, async () => {
      const verdict = await steps.judgePairwise(
        deps,
        {
          query,
          answer_a: runA.answer,
          answer_b: runB.answer,
          documents,
          ...(judgments ? { judgments } : {}),
        },
        signal,
        call,
      );
      const { winner, verdicts, orders_disagree } = verdict;
      return { query_id: question.id, a, b, winner, verdicts, orders_disagree };
    });
    if (game) games.push({ ...game, ...numbered });
  }
  // The retrieved passages' texts were for the judge: the report keeps their ids and scores.
  for (const result of Object.values(results)) {
    if (!result.run) continue;
    const retrieved = result.run.retrieved.map(({ id, doc_id, score }) => ({ id, doc_id, score }));
    result.run = { ...result.run, retrieved };
  }
  return { ...question, ...numbered, variants: results, games };
}

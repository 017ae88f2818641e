import { mapSettled } from "../../shared/concurrency.ts";
import { pairedTests } from "./paired.ts";
import { InvalidRequestError } from "../../shared/errors.ts";
import type { Deps } from "../../shared/deps.ts";
import {
  firstOrderGames,
  playedGames,
  summarizeVariant,
  tieRates,
  winRateMatrix,
} from "./aggregate.ts";
import { Checkpoints } from "./checkpoint.ts";
import { evaluateQuestion, type QuestionContext, unitsPerQuestion } from "./question.ts";
import { CI_METHOD } from "../../shared/metrics/stats.ts";
import { CLUSTER_BOOTSTRAP_METHOD } from "../../shared/metrics/bootstrap.ts";
import type { EvalSteps } from "./steps.ts";
import type {
  EvalProgress,
  EvalQuestion,
  EvaluationReport,
  QuestionResult,
  UnitError,
} from "./types.ts";
import { pairsForQuestion, parseVariants, variantPairs } from "./variants.ts";

export type EvaluationInput = {
  dataset: { name?: string; questions: EvalQuestion[] };
  /** Variant names (`none`, `one-turn+fusion`, ...) or a comma-separated list. */
  variants: string | readonly string[];
  limit?: number | undefined;
  /** Pairs of variants judged per question; default every pair. */
  games_per_query?: number | undefined;
  /** Questions in flight at once; default 2. */
  concurrency?: number | undefined;
  /**
   * Runs per question, default 1 (REBEL ran each technique 10 times, paper
   * 000 B.2). Every run after the first has its own units and cache scope.
   */
  repeat?: number | undefined;
  namespace: string;
  /** Names the checkpoints: the same id resumes, a new id starts afresh. */
  run_id: string;
};

export type EvaluationOptions = {
  onProgress?: ((progress: EvalProgress) => void) | undefined;
  signal?: AbortSignal | undefined;
  /** The work itself (`stepsOver` a request's step context); tests pass fakes. */
  steps: EvalSteps;
};

/** Elo settings every report uses: RAGElo's 500 tournaments, a fixed seed so reruns agree. */
export const ELO_SETTINGS = { tournaments: 500, seed: 1 };

/** The most runs per question an evaluation may ask for. */
export const MAX_REPEAT = 20;

/**
 * What an evaluation will do: its variants, questions and per-question
 * games, and its units. With `repeat`, each question is `repeat` entries
 * (question-major), so queue slices cut across repetitions like questions.
 */
function plan(input: EvaluationInput) {
  const variants = parseVariants(input.variants, input.namespace);
  const limit = input.limit ?? null;
  const questions = limit === null
    ? input.dataset.questions
    : input.dataset.questions.slice(0, limit);
  if (questions.length === 0) throw new InvalidRequestError("dataset: no questions to evaluate");
  const allPairs = variantPairs(variants.map((variant) => variant.name));
  const gamesPerQuery = Math.min(input.games_per_query ?? allPairs.length, allPairs.length);
  const concurrency = Math.max(1, input.concurrency ?? 2);
  const repeat = input.repeat ?? 1;
  if (!Number.isInteger(repeat) || repeat < 1 || repeat > MAX_REPEAT) {
    throw new InvalidRequestError(`repeat: must be a whole number from 1 to ${MAX_REPEAT}`);
  }
  const schedule = questions.flatMap((question, index) =>
    Array.from({ length: repeat }, (_, run) => ({
      question,
      pairs: pairsForQuestion(allPairs, gamesPerQuery, index),
      // Numbered only when there is more than one run, so a single run's report is unchanged.
      repetition: repeat > 1 ? run + 1 : undefined,
      units: 0,
    }))
  );
  for (const entry of schedule) {
    entry.units = unitsPerQuestion(
      variants.length,
      Boolean(entry.question.reference_answer),
      entry.pairs.length,
    );
  }
  const total = schedule.reduce((sum, entry) => sum + entry.units, 0);
  const progress: EvalProgress = { done: 0, total, phase: "runs", reused: 0, failed: 0 };
  return { variants, questions, limit, gamesPerQuery, concurrency, repeat, schedule, progress };
}

function questionContext(
  deps: Deps,
  options: EvaluationOptions,
  parts: Pick<QuestionContext, "variants" | "checkpoints" | "errors"> & { progress: EvalProgress },
): QuestionContext {
  const { progress } = parts;
  return {
    deps,
    steps: options.steps,
    variants: parts.variants,
    checkpoints: parts.checkpoints,
    signal: options.signal,
    errors: parts.errors,
    tick(phase, outcome, units = 1) {
      progress.done += units;
      progress.phase = phase;
      if (outcome === "reused") progress.reused += units;
      if (outcome === "failed") progress.failed += units;
      options.onProgress?.({ ...progress });
    },
  };
}

/**
 * Questions `from` to `to` of an evaluation, each unit checkpointed under
 * `run_id` and nothing aggregated: what one queue message does, so a run of
 * hundreds of questions is many short invocations. Progress counts the
 * questions before `from` as done. Returns how many questions there are.
 */
export async function runEvaluationSlice(
  deps: Deps,
  input: EvaluationInput,
  range: { from: number; to: number },
  options: EvaluationOptions,
): Promise<{ questions: number; failed: number }> {
  const { variants, concurrency, schedule, progress } = plan(input);
  const slice = schedule.slice(range.from, range.to);
  progress.done = schedule.slice(0, range.from).reduce((sum, entry) => sum + entry.units, 0);
  const checkpoints = new Checkpoints(deps.cache, input.run_id);
  const errors: UnitError[] = [];
  const context = questionContext(deps, options, { variants, checkpoints, errors, progress });
  await mapSettled(
    slice,
    concurrency,
    ({ question, pairs, repetition }) => evaluateQuestion(context, question, pairs, repetition),
  );
  options.signal?.throwIfAborted();
  return { questions: schedule.length, failed: errors.length };
}

/**
 * A batch evaluation: every question × variant through the pipeline, the
 * kept passages and answers judged, pairwise games between the variants,
 * then per-variant aggregates, a win-rate matrix and Elo ratings. At most
 * `concurrency` questions run at once; every finished unit is checkpointed
 * under `run_id`, so an interrupted run started again with the same id
 * redoes only what had not finished. Aborting `signal` stops it with the
 * signal's reason.
 */
export async function runEvaluation(
  deps: Deps,
  input: EvaluationInput,
  options: EvaluationOptions,
): Promise<EvaluationReport> {
  const started = new Date();
  const { signal } = options;
  const { steps } = options;
  const { variants, questions, limit, gamesPerQuery, concurrency, repeat, schedule, progress } =
    plan(input);
  const checkpoints = new Checkpoints(deps.cache, input.run_id);
  const errors: UnitError[] = [];
  const context = questionContext(deps, options, { variants, checkpoints, errors, progress });
  const settled = await mapSettled(
    schedule,
    concurrency,
    ({ question, pairs, repetition }) => evaluateQuestion(context, question, pairs, repetition),
  );
  signal?.throwIfAborted();
  const results: QuestionResult[] = settled.map((outcome, index) => {
    if (outcome.status === "fulfilled") return outcome.value;
    const { question, repetition } = schedule[index]!;
    errors.push({ unit: `question:${question.id}`, message: "evaluation failed" });
    return { ...question, ...(repetition ? { repetition } : {}), variants: {}, games: [] };
  });

  const names = variants.map((variant) => variant.name);
  const games = results.flatMap((result) => result.games);
  const { ratings } = steps.eloTournament(playedGames(games), ELO_SETTINGS);
  const firstOrder = steps.eloTournament(firstOrderGames(games), ELO_SETTINGS);
  const finished = new Date();
  return {
    run_id: input.run_id,
    dataset: { name: input.dataset.name ?? "inline", questions: questions.length },
    created_at: finished.toISOString(),
    config: {
      variants,
      limit,
      games_per_query: gamesPerQuery,
      concurrency,
      namespace: input.namespace,
      models: { llm: deps.config.llm.model, judge: deps.config.llm.judgeModel },
      ci: repeat > 1 ? CLUSTER_BOOTSTRAP_METHOD : CI_METHOD,
      elo: ELO_SETTINGS,
      repeat,
      max_degraded_share: deps.config.evalMaxDegradedShare,
    },
    timing: {
      started_at: started.toISOString(),
      finished_at: finished.toISOString(),
      duration_ms: finished.getTime() - started.getTime(),
      units: {
        computed: checkpoints.computed,
        reused: checkpoints.reused,
        failed: progress.failed,
      },
    },
    summary: names.map((name) => summarizeVariant(name, results)),
    elo: ratings,
    elo_first_order: firstOrder.ratings,
    tie_rates: tieRates(games),
    win_rates: winRateMatrix(names, games),
    paired: pairedTests(names, results),
    queries: results,
    errors,
  };
}

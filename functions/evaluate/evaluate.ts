import { InvalidRequestError } from "../../shared/errors.ts";
import type { Deps } from "../../shared/deps.ts";
import { tenantFieldOf } from "../../shared/tenants/scope.ts";
import {
  createJob,
  type EvaluationJob,
  readInput,
  readJob,
  runJob,
  type StoredEvaluationInput,
  storeInput,
} from "./jobs.ts";
import { bindRun, datasetBinding } from "./binding.ts";
import { configuredDataset } from "./scheduled.ts";
import { smokeDataset } from "./smoke.ts";
import type { EvalSteps } from "./steps.ts";
import type { EvalQuestion } from "./types.ts";
import { parseVariants } from "./variants.ts";

export { runScheduledEvaluation } from "./scheduled.ts";
export { type EvaluationJob, readJob, readReport } from "./jobs.ts";

/** Datasets a request may name instead of sending its questions. */
export const NAMED_DATASETS = ["smoke", "nightly"] as const;

/** A job that has not written progress for this long is taken as dead and may be resumed. */
const STALE_AFTER_MS = 120_000;

export type EvaluationRequest = {
  dataset: { questions: EvalQuestion[] } | { name: string };
  variants: string[];
  limit?: number | undefined;
  games_per_query?: number | undefined;
  concurrency?: number | undefined;
  /** Runs per question; default 1. */
  repeat?: number | undefined;
  namespace: string;
  run_id?: string | undefined;
};

async function resolveDataset(
  deps: Deps,
  env: Record<string, unknown>,
  request: EvaluationRequest,
): Promise<{ name: string; questions: EvalQuestion[]; namespace: string }> {
  const { dataset } = request;
  if ("questions" in dataset) {
    return { name: "inline", questions: dataset.questions, namespace: request.namespace };
  }
  if (dataset.name === "smoke") return await smokeDataset(deps);
  if (dataset.name === "nightly") return await configuredDataset(deps, env);
  throw new InvalidRequestError(`dataset.name: must be one of ${NAMED_DATASETS.join(", ")}`);
}

/**
 * Starts an evaluation in the background and returns its job at once.
 * `background` keeps the work alive after the response (Workers:
 * `executionCtx.waitUntil`; Deno: nothing needed). A `run_id` whose job is
 * still running is returned as it is; one whose job stopped (a crash, a
 * redeploy) or finished is run again from its checkpoints.
 */
export async function startEvaluation(
  deps: Deps,
  env: Record<string, unknown>,
  request: EvaluationRequest,
  options: {
    background?: (work: Promise<unknown>) => void;
    steps: EvalSteps;
    /** Called with questions × variants × runs before anything is scheduled; throws to refuse. */
    admit?: (steps: number) => Promise<void>;
  },
): Promise<EvaluationJob> {
  parseVariants(request.variants, request.namespace); // 400 before anything starts
  let stored: StoredEvaluationInput | undefined;
  if (request.run_id) {
    // 409 before anything else: one id's checkpoints must never mix two datasets.
    await bindRun(deps, request.run_id, await datasetBinding(request.dataset));
    const existing = await readJob(deps, request.run_id);
    const fresh = existing && Date.now() - Date.parse(existing.updated_at) < STALE_AFTER_MS;
    if (existing?.status === "running" && fresh) return existing;
    if (existing) stored = await readInput(deps, request.run_id);
  }
  // A named dataset is resolved (for `nightly`, its URL fetched) once per run: a run started
  // again reads the questions stored with it.
  const dataset = stored && "name" in request.dataset
    ? {
      name: stored.dataset.name ?? request.dataset.name,
      questions: stored.dataset.questions,
      namespace: stored.namespace,
    }
    : await resolveDataset(deps, env, request);
  const questions = Math.min(dataset.questions.length, request.limit ?? Infinity);
  // A repeated question costs its steps again.
  await options.admit?.(questions * request.variants.length * (request.repeat ?? 1));
  const job = await createJob(deps, {
    id: request.run_id ?? `eval-${crypto.randomUUID()}`,
    dataset: dataset.name,
    variants: request.variants,
  });
  const input = {
    dataset: { name: dataset.name, questions: dataset.questions },
    variants: request.variants,
    limit: request.limit,
    games_per_query: request.games_per_query,
    concurrency: request.concurrency,
    repeat: request.repeat,
    namespace: dataset.namespace,
  };
  // Stored with the run even without a queue: the next start of this run reuses its questions.
  await storeInput(deps, job.id, input);
  if (deps.jobs.name !== "none") {
    // On the platform's queue, a slice of questions per message: no invocation's time limit
    // bounds the run, and a process that dies mid-run leaves its message to be handed out again.
    // The tenant travels with the message: the next slice runs under one of its keys.
    await deps.jobs.enqueue({ job_id: job.id, step: "evaluate", from: 0, ...tenantFieldOf(deps) });
    return job;
  }
  // A Worker without a queue: the run goes on in this invocation (`waitUntil`).
  options.background?.(runJob(deps, job, input, { steps: options.steps }));
  return job;
}

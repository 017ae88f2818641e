import { z } from "zod";
import { SiftError, toErrorBody } from "../../shared/errors.ts";
import type { Deps } from "../../shared/deps.ts";
import { cacheHistory, recordRun } from "./history.ts";
import { renderReportHtml, renderReportJson } from "./report/html.ts";
import { type EvaluationInput, runEvaluation, runEvaluationSlice } from "./run.ts";
import type { EvalSteps } from "./steps.ts";
import type {
  EloRating,
  EvalProgress,
  EvaluationReport,
  MetricDelta,
  VariantSummary,
} from "./types.ts";

/** Job records and reports stay a week. */
const JOB_TTL_SECONDS = 7 * 24 * 3600;
/** Progress is written at most this often (each write is a cache call). */
const PROGRESS_WRITE_MS = 1000;

export type EvaluationJob = {
  id: string;
  status: "running" | "done" | "failed";
  dataset: string;
  variants: string[];
  created_at: string;
  updated_at: string;
  progress: EvalProgress | null;
  summary?: VariantSummary[];
  elo?: EloRating[];
  first_run?: boolean;
  regressions?: MetricDelta[];
  error?: string;
};

const jobSchema = z.looseObject({
  id: z.string(),
  status: z.enum(["running", "done", "failed"]),
  updated_at: z.string(),
});

const jobKey = (id: string) => `eval:job:${id}`;
const inputKey = (id: string) => `eval:input:${id}`;

/** What a queued evaluation's slices read: its questions and settings, stored once. */
export type StoredEvaluationInput = Omit<EvaluationInput, "run_id">;

export async function storeInput(
  deps: Pick<Deps, "cache">,
  id: string,
  input: StoredEvaluationInput,
): Promise<void> {
  await deps.cache.set(inputKey(id), input, { ttlSeconds: JOB_TTL_SECONDS });
}

export async function readInput(
  deps: Pick<Deps, "cache">,
  id: string,
): Promise<StoredEvaluationInput | undefined> {
  return await deps.cache.get<StoredEvaluationInput>(inputKey(id));
}

/**
 * Questions `from` to `to` of a queued evaluation, progress written to its
 * job record as it goes. Returns how many questions the run has; throws if
 * the slice could not run at all (the message is then handed out again).
 */
export async function runJobSlice(
  deps: Deps,
  job: EvaluationJob,
  input: StoredEvaluationInput,
  range: { from: number; to: number },
  options: { steps: EvalSteps },
): Promise<number> {
  let lastWrite = 0;
  let writing: Promise<void> = Promise.resolve();
  const onProgress = (progress: EvalProgress) => {
    job.progress = progress;
    if (Date.now() - lastWrite < PROGRESS_WRITE_MS) return;
    lastWrite = Date.now();
    job.updated_at = new Date().toISOString();
    writing = writing.then(() => writeJob(deps, { ...job }));
  };
  const { questions } = await runEvaluationSlice(deps, { ...input, run_id: job.id }, range, {
    ...options,
    onProgress,
  });
  await writing;
  await writeJob(deps, { ...job, updated_at: new Date().toISOString() });
  return questions;
}
const reportKey = (id: string, format: "html" | "json") => `eval:report:${format}:${id}`;

export async function readJob(
  deps: Pick<Deps, "cache">,
  id: string,
): Promise<EvaluationJob | undefined> {
  const parsed = jobSchema.safeParse(await deps.cache.get(jobKey(id)));
  return parsed.success ? parsed.data as EvaluationJob : undefined;
}

export async function readReport(
  deps: Pick<Deps, "cache">,
  id: string,
  format: "html" | "json",
): Promise<string | undefined> {
  const stored = await deps.cache.get<unknown>(reportKey(id, format));
  return typeof stored === "string" ? stored : undefined;
}

function writeJob(deps: Pick<Deps, "cache">, job: EvaluationJob): Promise<void> {
  return deps.cache.set(jobKey(job.id), job, { ttlSeconds: JOB_TTL_SECONDS });
}

/** A fresh job record, written before the work starts so `GET` finds it at once. */
export async function createJob(
  deps: Pick<Deps, "cache">,
  input: { id: string; dataset: string; variants: string[] },
): Promise<EvaluationJob> {
  const now = new Date().toISOString();
  const job: EvaluationJob = {
    ...input,
    status: "running",
    created_at: now,
    updated_at: now,
    progress: null,
  };
  // The first record goes to the store itself, not through the cache that drops failed
  // writes: a 202 for a run that no GET can find would lose it.
  try {
    await deps.cache.store.set(jobKey(job.id), job, { ttlSeconds: JOB_TTL_SECONDS });
  } catch (error) {
    throw new SiftError("upstream_error", 503, "The evaluation store is unavailable; retry later", {
      cause: error,
      isRetryable: true,
    });
  }
  return job;
}

/** Marks a job failed with a public message. */
export async function failJob(
  deps: Pick<Deps, "cache">,
  job: EvaluationJob,
  message: string,
): Promise<void> {
  await writeJob(deps, {
    ...job,
    status: "failed",
    updated_at: new Date().toISOString(),
    error: message,
  });
}

/**
 * Runs an evaluation as a job: progress into the job record (throttled),
 * then the comparison with the dataset's history in the cache store, the
 * reports (HTML and JSON) and the summary. A failure marks the job failed
 * with a public message; it never rejects, so a background promise is safe.
 */
export async function runJob(
  deps: Deps,
  job: EvaluationJob,
  input: Omit<EvaluationInput, "run_id">,
  options: { steps: EvalSteps; signal?: AbortSignal },
): Promise<EvaluationReport | undefined> {
  let lastWrite = 0;
  let writing: Promise<void> = Promise.resolve();
  const onProgress = (progress: EvalProgress) => {
    job.progress = progress;
    if (Date.now() - lastWrite < PROGRESS_WRITE_MS) return;
    lastWrite = Date.now();
    job.updated_at = new Date().toISOString();
    writing = writing.then(() => writeJob(deps, { ...job }));
  };
  try {
    const report = await runEvaluation(deps, { ...input, run_id: job.id }, {
      ...options,
      onProgress,
    });
    const comparison = await recordRun(report, cacheHistory(deps.cache, report.dataset.name));
    await deps.cache.set(reportKey(job.id, "html"), renderReportHtml(report), {
      ttlSeconds: JOB_TTL_SECONDS,
    });
    await deps.cache.set(reportKey(job.id, "json"), renderReportJson(report), {
      ttlSeconds: JOB_TTL_SECONDS,
    });
    await writing;
    await writeJob(deps, {
      ...job,
      status: "done",
      updated_at: new Date().toISOString(),
      summary: report.summary,
      elo: report.elo,
      first_run: comparison.first_run,
      ...(comparison.first_run ? {} : { regressions: comparison.regressions }),
    });
    return report;
  } catch (error) {
    console.error(`evaluation ${job.id} failed:`, error);
    await writing;
    await writeJob(deps, {
      ...job,
      status: "failed",
      updated_at: new Date().toISOString(),
      error: toErrorBody(error).body.error.message,
    });
    return undefined;
  }
}

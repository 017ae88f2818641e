import { z } from "zod";
import { ConfigError } from "../../shared/errors.ts";
import { fetchDatasetText } from "./dataset-fetch.ts";
import { scheduledRunId } from "./scheduled-id.ts";
import { describeIssues } from "../../shared/http/validate.ts";
import type { Deps } from "../../shared/deps.ts";
import { parseQuestionsJsonl } from "./dataset.ts";
import { createJob, runJob } from "./jobs.ts";
import type { EvalSteps } from "./steps.ts";
import { smokeDataset } from "./smoke.ts";
import type { EvalQuestion, EvaluationReport } from "./types.ts";
import { parseVariants } from "./variants.ts";

const settingsSchema = z.object({
  EVAL_DATASET_URL: z.url().refine((url) => /^https?:\/\//.test(url), {
    error: "must be an http(s) URL",
  }).optional(),
  EVAL_NAMESPACE: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/).default("default"),
  EVAL_VARIANTS: z.string().default("none,one-turn,two-turn"),
  EVAL_LIMIT: z.coerce.number().int().min(1).optional(),
});

/**
 * The scheduled evaluation's settings, from the same env as everything else:
 * `EVAL_DATASET_URL` (a questions `.jsonl` over what `EVAL_NAMESPACE`
 * already holds; unset: the built-in smoke dataset over the demo corpus),
 * `EVAL_VARIANTS` (default `none,one-turn,two-turn`), `EVAL_LIMIT`.
 */
export function readEvalSettings(env: Record<string, unknown>) {
  const cleaned = Object.fromEntries(
    Object.entries(env).filter(([key, value]) =>
      key.startsWith("EVAL_") && typeof value === "string" && value.trim() !== ""
    ),
  );
  const parsed = settingsSchema.safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(`Invalid environment: ${describeIssues(parsed.error)}`);
  }
  const settings = parsed.data;
  parseVariants(settings.EVAL_VARIANTS, settings.EVAL_NAMESPACE); // a bad name fails here, not at 3 am
  return settings;
}

/** The configured dataset: fetched from `EVAL_DATASET_URL`, or the smoke set. */
export async function configuredDataset(
  deps: Deps,
  env: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<{ name: string; questions: EvalQuestion[]; namespace: string }> {
  const settings = readEvalSettings(env);
  if (!settings.EVAL_DATASET_URL) return await smokeDataset(deps, signal);
  const url = settings.EVAL_DATASET_URL;
  const text = await fetchDatasetText(url, { signal });
  const name = new URL(url).pathname.split("/").pop()?.replace(/\.jsonl$/, "") || "configured";
  return {
    name,
    questions: parseQuestionsJsonl(text, name),
    namespace: settings.EVAL_NAMESPACE,
  };
}

/**
 * The nightly run: evaluates the configured dataset under the id
 * `nightly-YYYY-MM-DD` (a retried trigger the same day resumes from its
 * checkpoints), keeps the report at `/v1/evaluations/<id>/report`, appends
 * the run to the dataset's history and logs any regression against the
 * previous run.
 */
export async function runScheduledEvaluation(
  deps: Deps,
  env: Record<string, unknown>,
  options: { now?: Date; steps: EvalSteps; signal?: AbortSignal },
): Promise<EvaluationReport | undefined> {
  const settings = readEvalSettings(env);
  const dataset = await configuredDataset(deps, env, options.signal);
  const variants = settings.EVAL_VARIANTS.split(",").map((name) => name.trim()).filter(Boolean);
  const id = scheduledRunId(options.now ?? new Date());
  const job = await createJob(deps, { id, dataset: dataset.name, variants });
  const report = await runJob(deps, job, {
    dataset: { name: dataset.name, questions: dataset.questions },
    variants,
    limit: settings.EVAL_LIMIT,
    namespace: dataset.namespace,
  }, options);
  const comparison = report?.comparison;
  if (!report) console.error(`sift nightly evaluation ${id} failed; see GET /v1/evaluations/${id}`);
  else if (comparison && !comparison.first_run && comparison.regressions.length > 0) {
    const lines = comparison.regressions.map((delta) =>
      `${delta.variant} ${delta.metric} ${delta.previous.toFixed(3)} → ${
        delta.current.toFixed(3)
      } (${delta.rule})`
    );
    console.warn(
      `sift nightly evaluation ${id}: ${lines.length} regression(s)\n  ${lines.join("\n  ")}`,
    );
  } else console.log(`sift nightly evaluation ${id}: done, no regressions`);
  return report;
}

import assert from "node:assert/strict";
import { readConfig } from "../../shared/config.ts";
import { fakeSteps } from "../helpers/eval_fakes.ts";
import { readJob, readReport } from "../../functions/evaluate/jobs.ts";
import { readEvalSettings, runScheduledEvaluation } from "../../functions/evaluate/scheduled.ts";
import { SMOKE_NAMESPACE, SMOKE_QUESTIONS } from "../../functions/evaluate/smoke.ts";
import { Runtime } from "../../compose/runtime.ts";

/** Keeps the run's own log lines out of the test output, and returns them. */
async function quietly<T>(body: () => Promise<T>): Promise<{ value: T; logs: string[] }> {
  const logs: string[] = [];
  const saved = { log: console.log, warn: console.warn, error: console.error };
  console.log = console.warn = console.error = (...parts: unknown[]) => logs.push(parts.join(" "));
  try {
    return { value: await body(), logs };
  } finally {
    Object.assign(console, saved);
  }
}

Deno.test("the scheduled run evaluates the smoke dataset, keeps its report, and compares night to night", async () => {
  const deps = new Runtime().deps(readConfig({}));
  const first = await quietly(() =>
    runScheduledEvaluation(deps, {}, {
      now: new Date("2025-03-01T03:00:00Z"),
      steps: fakeSteps().steps,
    })
  );
  assert.equal(first.value?.run_id, "nightly-2025-03-01");
  assert.equal(first.value?.dataset.questions, SMOKE_QUESTIONS.length);
  assert.deepEqual(first.value?.comparison, { first_run: true });
  assert.ok(
    await deps.index.count({ namespace: SMOKE_NAMESPACE }) > 0,
    "the demo corpus is ingested",
  );
  assert.equal((await readJob(deps, "nightly-2025-03-01"))?.status, "done");
  assert.match((await readReport(deps, "nightly-2025-03-01", "html")) ?? "", /<svg/);

  const second = await quietly(() =>
    runScheduledEvaluation(deps, {}, {
      now: new Date("2025-03-02T03:00:00Z"),
      steps: fakeSteps().steps,
    })
  );
  const comparison = second.value?.comparison;
  assert.ok(comparison && !comparison.first_run);
  assert.equal(comparison.previous_run_id, "nightly-2025-03-01");
  assert.equal(comparison.regressions.length, 0);
  assert.ok(second.logs.some((line) => /nightly-2025-03-02: done, no regressions/.test(line)));
});

Deno.test("the scheduled run logs regressions and marks a failed night without throwing", async () => {
  const deps = new Runtime().deps(readConfig({}));
  const now = new Date("2025-04-01T03:00:00Z");
  const env = { EVAL_VARIANTS: "none,two-turn" };
  await quietly(() => runScheduledEvaluation(deps, env, { now, steps: fakeSteps().steps }));
  // The next night every two-turn answer is judged far worse.
  const { steps } = fakeSteps();
  const worse = {
    ...steps,
    answerSimilarity: async (...args: Parameters<typeof steps.answerSimilarity>) => {
      const result = await steps.answerSimilarity(...args);
      return args[1].answer.startsWith("[two-turn]") ? { ...result, score: 0 } : result;
    },
  };
  const next = new Date("2025-04-02T03:00:00Z");
  const { value, logs } = await quietly(() =>
    runScheduledEvaluation(deps, env, { now: next, steps: worse })
  );
  assert.ok(value?.comparison && !value.comparison.first_run);
  assert.ok(value.comparison.regressions.some((delta) => delta.variant === "two-turn"));
  assert.ok(logs.some((line) => /regression\(s\)\n {2}two-turn answer_similarity/.test(line)));

  const broken = { ...steps, runVariant: () => Promise.reject(new Error("index down")) };
  const failed = await quietly(() =>
    runScheduledEvaluation(deps, env, { now: new Date("2025-04-03T03:00:00Z"), steps: broken })
  );
  // Every run failed: the report still exists, with the failures in it.
  assert.equal(failed.value?.errors.length, SMOKE_QUESTIONS.length * 2);
});

Deno.test("readEvalSettings refuses a bad variant or URL at once, not at 3 am", () => {
  assert.throws(() => readEvalSettings({ EVAL_VARIANTS: "none,three-turn" }), /three-turn/);
  assert.throws(() => readEvalSettings({ EVAL_DATASET_URL: "ftp://x" }), /Invalid environment/);
  assert.equal(readEvalSettings({ EVAL_LIMIT: "5" }).EVAL_LIMIT, 5);
});

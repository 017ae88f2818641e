import assert from "node:assert/strict";
import { readConfig } from "../../shared/config.ts";
import { fakeSteps } from "../helpers/eval_fakes.ts";
import { runEvaluation } from "../../functions/evaluate/run.ts";
import type { EvalQuestion } from "../../functions/evaluate/types.ts";
import { Runtime } from "../../compose/runtime.ts";

const QUESTIONS: EvalQuestion[] = Array.from({ length: 6 }, (_, i) => ({
  id: `q${i}`,
  question: `Question number ${i}?`,
  reference_answer: `Reference ${i}.`,
  target_doc: i === 5 ? null : "doc-a",
}));

const input = (runId: string) => ({
  dataset: { name: "fake", questions: QUESTIONS },
  variants: ["none", "one-turn", "two-turn"],
  namespace: "default",
  run_id: runId,
});

/** Units per question: 3 runs + 3 × (retrieval, similarity, answer) + 3 games. */
const TOTAL_UNITS = QUESTIONS.length * (3 + 9 + 3);

Deno.test("an evaluation interrupted partway resumes with the same run id and redoes no finished unit", async () => {
  const deps = new Runtime().deps(readConfig({}));
  const first = fakeSteps({ delayMs: 2 });
  const controller = new AbortController();
  await assert.rejects(
    runEvaluation(deps, input("resume-1"), {
      steps: first.steps,
      signal: controller.signal,
      onProgress: (progress) => {
        if (progress.done >= 30) controller.abort(new Error("stop here"));
      },
    }),
    /stop here/,
  );
  assert.ok(first.completed.length >= 30 && first.completed.length < TOTAL_UNITS);

  const second = fakeSteps({ delayMs: 0 });
  let reused = 0;
  const report = await runEvaluation(deps, input("resume-1"), {
    steps: second.steps,
    onProgress: (progress) => (reused = progress.reused),
  });
  const finishedBefore = new Set(first.completed);
  assert.deepEqual(second.calls.filter((unit) => finishedBefore.has(unit)), []);
  assert.equal(second.calls.length, TOTAL_UNITS - first.completed.length);
  assert.equal(reused, first.completed.length);
  assert.equal(report.timing.units.reused, first.completed.length);
  assert.equal(report.timing.units.computed, second.calls.length);
  assert.equal(report.queries.length, QUESTIONS.length);
  assert.equal(report.win_rates.total_games, QUESTIONS.length * 3);
});

Deno.test("a finished run started again with its id computes nothing; a new id starts afresh", async () => {
  const deps = new Runtime().deps(readConfig({}));
  await runEvaluation(deps, input("done-1"), { steps: fakeSteps().steps });
  const again = fakeSteps();
  const report = await runEvaluation(deps, input("done-1"), { steps: again.steps });
  assert.equal(again.calls.length, 0);
  assert.equal(report.timing.units.reused, TOTAL_UNITS);
  const fresh = fakeSteps();
  await runEvaluation(deps, input("done-2"), { steps: fresh.steps });
  assert.equal(fresh.calls.length, TOTAL_UNITS);
});

Deno.test("a failing unit is reported, not checkpointed, and tried again on the next run", async () => {
  const deps = new Runtime().deps(readConfig({}));
  const failing = fakeSteps({ failOn: (unit) => unit === "run:Question number 2?:one-turn" });
  const originalError = console.error;
  console.error = () => {};
  let report;
  try {
    report = await runEvaluation(deps, input("fail-1"), { steps: failing.steps });
  } finally {
    console.error = originalError;
  }
  assert.deepEqual(report.errors.map((error) => error.unit), ["run:q2:one-turn"]);
  const oneTurn = report.summary.find((summary) => summary.variant === "one-turn")!;
  assert.equal(oneTurn.runs, QUESTIONS.length - 1);
  assert.equal(oneTurn.failed, 1);
  // Its judgments and its two games could not happen: counted as failed, not lost.
  assert.equal(report.timing.units.failed, 1 + 3 + 2);

  const retry = fakeSteps();
  const retried = await runEvaluation(deps, input("fail-1"), { steps: retry.steps });
  assert.equal(retry.calls.filter((unit) => unit.startsWith("run:")).length, 1);
  assert.equal(retried.errors.length, 0);
  assert.equal(retried.summary.find((summary) => summary.variant === "one-turn")!.runs, 6);
});

Deno.test("games_per_query plays a rotating window of pairs and concurrency bounds work in flight", async () => {
  const deps = new Runtime().deps(readConfig({}));
  let inFlight = 0;
  let most = 0;
  const { steps } = fakeSteps({ delayMs: 1 });
  const tracked = {
    ...steps,
    runVariant: async (...args: Parameters<typeof steps.runVariant>) => {
      most = Math.max(most, ++inFlight);
      try {
        return await steps.runVariant(...args);
      } finally {
        inFlight--;
      }
    },
  };
  const report = await runEvaluation(deps, {
    ...input("window-1"),
    games_per_query: 1,
    concurrency: 3,
  }, {
    steps: tracked,
  });
  assert.equal(report.win_rates.total_games, QUESTIONS.length);
  const pairs = new Set(
    report.queries.flatMap((query) => query.games.map((game) => `${game.a}-${game.b}`)),
  );
  assert.equal(pairs.size, 3);
  assert.ok(most <= 3 && most >= 2, `at most 3 runs at once, saw ${most}`);
});

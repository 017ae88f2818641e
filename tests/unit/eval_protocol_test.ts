/**
 * Where the evaluation follows the papers more closely than it did: RAGElo's
 * MRR@5 over the retrieved passages, RAGElo's one-order protocol beside our
 * two-order one, and REBEL's repeated runs.
 */
import assert from "node:assert/strict";
import { readConfig } from "../../shared/config.ts";
import { intervalOver, tieRates } from "../../functions/evaluate/aggregate.ts";
import { judgedPassages, splitRetrievalJudgments } from "../../functions/evaluate/evidence.ts";
import { renderReportHtml } from "../../functions/evaluate/report/html.ts";
import { summaryText } from "../../functions/evaluate/report/text.ts";
import { runEvaluation, runEvaluationSlice } from "../../functions/evaluate/run.ts";
import type { EvalSteps } from "../../functions/evaluate/steps.ts";
import type { EvalQuestion, Game, VariantRun } from "../../functions/evaluate/types.ts";
import { clusterBootstrapInterval } from "../../shared/metrics/bootstrap.ts";
import { meanInterval } from "../../shared/metrics/stats.ts";
import { Runtime } from "../../compose/runtime.ts";
import { fakeSteps } from "../helpers/eval_fakes.ts";

const QUESTIONS: EvalQuestion[] = Array.from({ length: 3 }, (_, i) => ({
  id: `q${i}`,
  question: `Question number ${i}?`,
  reference_answer: `Reference ${i}.`,
  target_doc: "doc-a",
}));

const deps = () => new Runtime().deps(readConfig({}));
const input = (runId: string, variants: string[], extra: Record<string, unknown> = {}) => ({
  dataset: { name: "fake", questions: QUESTIONS },
  variants,
  namespace: "default",
  run_id: runId,
  ...extra,
});

const passage = (id: string) => ({ id, doc_id: id.split("#")[0]!, text: `${id} text` });

Deno.test("judgedPassages() judges the kept passages, then the first five retrieved not kept", () => {
  const run = {
    kept: [passage("c#0"), passage("a#0")],
    retrieved: ["a#0", "b#0", "c#0", "d#0", "e#0", "f#0"].map((id, rank) => ({
      ...passage(id),
      score: 1 / (rank + 1),
    })),
  };
  const judged = judgedPassages(run);
  assert.deepEqual(judged.documents.map((document) => document.id), [
    "c#0",
    "a#0",
    "b#0",
    "d#0",
    "e#0",
  ], "a#0 and c#0 are judged once; f#0 is sixth");
  assert.equal(judged.kept, 2);
  assert.deepEqual(judged.retrievedAt, [1, 2, 0, 3, 4]);

  const grades = { "c#0": 2, "a#0": 0, "b#0": 1, "d#0": 0, "e#0": 2 } as const;
  const split = splitRetrievalJudgments({
    judgments: judged.documents.map((document, index) => ({
      index,
      score: grades[document.id as keyof typeof grades],
      reason: document.id!,
    })),
    degraded: false,
  }, judged);
  assert.equal(split.precision, 1 / 2, "precision is over the kept passages only");
  assert.deepEqual(split.judgments.map((judgment) => judgment.reason), ["c#0", "a#0"]);
  assert.deepEqual(
    split.retrieved_judgments!.map((judgment) => [judgment.index, judgment.reason, judgment.score]),
    [[0, "a#0", 0], [1, "b#0", 1], [2, "c#0", 2], [3, "d#0", 0], [4, "e#0", 2]],
  );

  // A run checkpointed before retrieved passages kept their text: kept passages only.
  const old = judgedPassages({
    kept: run.kept,
    retrieved: run.retrieved.map(({ id, doc_id, score }) => ({ id, doc_id, score })),
  });
  assert.deepEqual(old.documents.map((document) => document.id), ["c#0", "a#0"]);
  assert.equal(old.retrievedAt, undefined);
});

Deno.test("the report's mrr_at_5 grades the first retrieved passages; kept_mrr the kept ones", async () => {
  const fake = fakeSteps();
  // doc-a is retrieved first and kept first; the judge finds it and doc-z irrelevant.
  const grades: Record<string, 0 | 1 | 2> = { "doc-a#0": 0, "doc-b#0": 2, "doc-c#0": 1 };
  const judgedDocuments: string[][] = [];
  const steps: EvalSteps = {
    ...fake.steps,
    judgeRetrieval: (_deps, { documents }) => {
      judgedDocuments.push(documents.map((document) => document.id!));
      const judgments = documents.map((document, index) => ({
        index,
        score: grades[document.id!] ?? 0,
        reason: "graded",
      }));
      return Promise.resolve({
        judgments,
        precision: 0.123, // ignored: precision is recomputed over the kept passages
        excluded: 0,
        degraded: false,
        usage: { tokens_in: 0, tokens_out: 0 },
      });
    },
  };
  const report = await runEvaluation(deps(), input("mrr-1", ["none"]), { steps });
  assert.deepEqual(judgedDocuments[0], ["doc-a#0", "doc-b#0", "doc-c#0", "doc-z#0"]);
  const [summary] = report.summary;
  assert.deepEqual(summary!.mrr_at_5, { somewhat: 0, very: 0, n: 3 });
  assert.deepEqual(summary!.kept_mrr, { somewhat: 1 / 2, very: 1 / 2, n: 3 });
  assert.equal(summary!.target_mrr_at_5, 1, "doc-a is retrieved first");
  assert.ok(Math.abs(summary!.retrieval_precision!.mean - 2 / 3) < 1e-12);
  const html = renderReportHtml(report);
  assert.match(html, /<td class="mrr-at-5">0\.000 \/ 0\.000<\/td>/);
  assert.match(html, /<td class="kept-mrr">0\.500 \/ 0\.500<\/td>/);
  assert.ok(html.includes("MRR@5, retrieved (≥1 / =2)"));
});

const game = (winner: Game["winner"], verdicts: Game["verdicts"]): Game => ({
  query_id: "q",
  a: "x",
  b: "y",
  winner,
  verdicts,
  orders_disagree: verdicts[0] !== verdicts[1],
});

Deno.test("tieRates() counts disagreements as ties only under both orders", () => {
  assert.deepEqual(
    tieRates([
      game("C", ["A", "B"]),
      game("A", ["A", "A"]),
      game("C", ["C", "C"]),
      game("B", ["B", "B"]),
    ]),
    { both_orders: 2 / 4, first_order: 1 / 4 },
  );
  assert.deepEqual(tieRates([]), { both_orders: null, first_order: null });
});

Deno.test("the report rates the games both ways: both orders (ours) and the first order alone (RAGElo's)", async () => {
  const { steps } = fakeSteps();
  // one-turn vs two-turn-relevance and two-turn-relevance vs two-turn are close calls: the fake
  // judge prefers whichever answer it sees first, so the orders disagree and ours calls a tie.
  const report = await runEvaluation(
    deps(),
    input("protocol-1", ["one-turn", "two-turn-relevance", "two-turn"]),
    { steps },
  );
  assert.equal(report.win_rates.total_games, 9);
  assert.deepEqual(report.tie_rates, { both_orders: 6 / 9, first_order: 0 });
  const ties = (ratings: typeof report.elo) => ratings.reduce((sum, r) => sum + r.ties, 0);
  assert.equal(ties(report.elo), 2 * 6, "each tie counts for both players");
  assert.equal(ties(report.elo_first_order), 0);
  assert.deepEqual(
    report.elo_first_order.map((rating) => [rating.agent, rating.wins, rating.losses]).sort(),
    [["one-turn", 3, 3], ["two-turn", 3, 3], ["two-turn-relevance", 3, 3]],
  );
  const html = renderReportHtml(report);
  assert.ok(html.includes("RAGElo's protocol: first order only"));
  assert.match(
    html,
    /Ties: 66\.7% of 9 games judged in both orders.*0\.0% counting only the first order/s,
  );
  const firstOrder = html.match(/<div class="elo-first-order">([\s\S]*?)<\/div>/)![1]!;
  assert.equal(firstOrder.match(/<tr><td>/g)?.length, 3);
  assert.match(summaryText(report), /ties: 66\.7% judged in both orders, 0\.0% on the first order/);
});

Deno.test("repeat runs every question again under its own units and cache scope", async () => {
  const fake = fakeSteps();
  const store = deps();
  const report = await runEvaluation(
    store,
    input("repeat-1", ["none", "one-turn"], { repeat: 3 }),
    {
      steps: fake.steps,
    },
  );
  const perRun = 2 * 4 + 1; // 2 runs, 2 × 3 judgments, 1 game
  assert.equal(fake.calls.length, QUESTIONS.length * 3 * perRun);
  assert.ok(fake.calls.includes("run:Question number 0?:none"));
  assert.ok(fake.calls.includes("run:Question number 0?:none@repeat-2"));
  assert.ok(fake.calls.includes("run:Question number 0?:none@repeat-3"));
  assert.equal(
    fake.calls.filter((unit) => unit.endsWith("@repeat-3")).length,
    QUESTIONS.length * perRun,
  );
  assert.equal(report.config.repeat, 3);
  assert.equal(report.dataset.questions, QUESTIONS.length);
  assert.deepEqual(
    report.queries.map((query) => `${query.id}/${query.repetition}`),
    ["q0/1", "q0/2", "q0/3", "q1/1", "q1/2", "q1/3", "q2/1", "q2/2", "q2/3"],
  );
  assert.equal(report.win_rates.total_games, 9);
  assert.equal(report.summary[0]!.runs, 9);
  assert.match(report.config.ci, /bootstrap .* resampling questions/);
  // The interval is the clustered bootstrap over every run, grouped by question.
  const precision = report.queries.map((query) => ({
    question: query.id,
    value: query.variants["one-turn"]!.retrieval!.precision!,
  }));
  assert.deepEqual(
    report.summary[1]!.retrieval_precision,
    clusterBootstrapInterval(
      QUESTIONS.map((q) => precision.filter((p) => p.question === q.id).map((p) => p.value)),
      { lower: 0, upper: 1 },
    ),
  );
  assert.ok(renderReportHtml(report).includes("× 3 runs each"));

  // The same run id again computes nothing: every repetition's units were checkpointed.
  const again = fakeSteps();
  const resumed = await runEvaluation(
    store,
    input("repeat-1", ["none", "one-turn"], { repeat: 3 }),
    {
      steps: again.steps,
    },
  );
  assert.equal(again.calls.length, 0);
  assert.equal(resumed.timing.units.reused, fake.calls.length);
});

Deno.test("repeat 1 keeps a single run's units, names and intervals", async () => {
  const fake = fakeSteps();
  const report = await runEvaluation(deps(), input("repeat-once", ["none"], { repeat: 1 }), {
    steps: fake.steps,
  });
  assert.ok(fake.calls.every((unit) => !unit.includes("@repeat")));
  assert.ok(report.queries.every((query) => query.repetition === undefined));
  assert.equal(report.config.repeat, 1);
  assert.match(report.config.ci, /Student t/);
  await assert.rejects(
    runEvaluation(deps(), input("repeat-bad", ["none"], { repeat: 21 }), { steps: fake.steps }),
    /repeat: must be a whole number from 1 to 20/,
  );
});

Deno.test("a queue slice cuts across repetitions like questions", async () => {
  const fake = fakeSteps();
  const shared = deps();
  const sliced = input("repeat-slices", ["none"], { repeat: 2 });
  const first = await runEvaluationSlice(shared, sliced, { from: 0, to: 3 }, { steps: fake.steps });
  assert.equal(first.questions, QUESTIONS.length * 2, "entries are (question, run) pairs");
  const runs = fake.calls.filter((unit) => unit.startsWith("run:"));
  assert.deepEqual(runs, [
    "run:Question number 0?:none",
    "run:Question number 0?:none@repeat-2",
    "run:Question number 1?:none",
  ]);
  await runEvaluationSlice(shared, sliced, { from: 3, to: 6 }, { steps: fake.steps });
  const finished = fakeSteps();
  const report = await runEvaluation(shared, sliced, { steps: finished.steps });
  assert.equal(finished.calls.length, 0, "the slices computed every unit");
  assert.equal(report.queries.length, 6);
});

Deno.test("intervalOver() is Student t with one run per question and a clustered bootstrap with more", () => {
  const once = [0.2, 0.9, 0.4, 0.7].map((value, i) => ({ question: `q${i}`, value }));
  assert.deepEqual(
    intervalOver(once, { lower: 0, upper: 1 }),
    meanInterval([0.2, 0.9, 0.4, 0.7], { lower: 0, upper: 1 }),
  );
  const twice = [...once, ...once.map(({ question, value }) => ({ question, value: value / 2 }))];
  assert.deepEqual(
    intervalOver(twice, { lower: 0, upper: 1 }),
    clusterBootstrapInterval(once.map(({ value }) => [value, value / 2]), { lower: 0, upper: 1 }),
  );
});

// Keeps the fake's shape honest: a run's first retrieved passages carry text to judge.
Deno.test("the fake runs retrieve passages the judge can read", async () => {
  const run = await fakeSteps().steps.runVariant(deps(), {
    query: "q",
    pipeline: {
      retrieval: { mode: "hybrid", top_k: 3, fusion: 0 },
      namespace: "d",
      sequential: false,
    },
  }) as VariantRun;
  assert.ok(run.retrieved.every((hit) => typeof hit.text === "string"));
});

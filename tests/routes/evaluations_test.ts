import assert from "node:assert/strict";
import { createSiftApp } from "../../app.ts";
import { MemoryJobBackend } from "../../shared/jobs/memory.ts";
import type { JobMessage } from "../../shared/jobs/types.ts";
import { Runtime } from "../../compose/runtime.ts";
import { NoQueueJobBackend } from "../../adapters/workers/queue-jobs.ts";
import { CORPUS } from "./corpus.ts";

/** Answers take 50 ms to start, so a run is still going when the first GET arrives. */
const ENV = { DEMO_CORPUS: "false", OFFLINE_MODEL_LATENCY: "ttft=50ms" };

const QUESTIONS = [
  {
    id: "rrf",
    question: "How does reciprocal rank fusion score a document?",
    reference_answer: "The sum of one divided by k plus its rank, with k = 60.",
    target_doc: "rrf",
  },
  { question: "What did the GLM-130B paper report?", target_doc: null },
];

/**
 * The app as a Worker without a jobs queue runs it: an execution context that
 * hands over the background work (the queued path has its own test below).
 */
function evaluationsApp() {
  // The evaluation runs the pipeline and the judges as steps: the all-in-one app bundles them.
  const app = createSiftApp({ runtime: new Runtime({ jobs: () => new NoQueueJobBackend() }) });
  const background: Promise<unknown>[] = [];
  const context = {
    waitUntil: (work: Promise<unknown>) => background.push(work),
    passThroughOnException() {},
    props: {},
  };
  const request = (path: string, body?: unknown) =>
    app.request(
      path,
      body === undefined ? {} : {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      },
      ENV,
      context,
    );
  return { request, background };
}

async function ingested() {
  const app = evaluationsApp();
  const response = await app.request("/v1/documents", { documents: CORPUS, namespace: "evals" });
  assert.equal(response.status, 201);
  return app;
}

Deno.test("POST /v1/evaluations runs in the background; GET gives status, progress, summary and the report", async () => {
  const { request, background } = await ingested();
  const started = await request("/v1/evaluations", {
    dataset: { questions: QUESTIONS },
    variants: "none,one-turn",
    namespace: "evals",
  });
  assert.equal(started.status, 202);
  const job = await started.json();
  assert.match(job.id, /^eval-/);
  assert.deepEqual(job, {
    id: job.id,
    status: "running",
    status_url: `/v1/evaluations/${job.id}`,
    report_url: `/v1/evaluations/${job.id}/report`,
  });
  assert.equal(background.length, 1, "the work is handed to waitUntil");

  const early = await request(job.report_url);
  assert.equal(early.status, 404);
  assert.match((await early.json()).error.message, /not ready \(status: running\)/);

  await Promise.all(background);
  const status = await (await request(job.status_url)).json();
  assert.equal(status.status, "done");
  assert.equal(status.dataset, "inline");
  assert.deepEqual(status.summary.map((variant: { variant: string }) => variant.variant), [
    "none",
    "one-turn",
  ]);
  assert.equal(status.first_run, true);
  assert.equal(status.progress.done, status.progress.total);
  assert.equal(status.elo.length, 2);

  const page = await request(job.report_url);
  assert.equal(page.status, 200);
  assert.match(page.headers.get("content-type") ?? "", /^text\/html/);
  assert.match(page.headers.get("content-security-policy") ?? "", /default-src 'none'/);
  const html = await page.text();
  assert.ok(
    html.includes('id="chart-quality-speed"') && html.includes('id="chart-precision-similarity"'),
  );
  const json = await (await request(`${job.report_url}?format=json`)).json();
  assert.equal(json.run_id, job.id);
  assert.equal(json.queries[1].target_doc, null, "a question with no answer in the corpus is kept");
});

Deno.test("POST /v1/evaluations with a finished run_id resumes from its checkpoints", async () => {
  const { request, background } = await ingested();
  const body = {
    dataset: { questions: QUESTIONS },
    variants: ["none"],
    namespace: "evals",
    run_id: "again-1",
  };
  await request("/v1/evaluations", body);
  await Promise.all(background.splice(0));
  const rerun = await request("/v1/evaluations", body);
  assert.equal(rerun.status, 202);
  await Promise.all(background.splice(0));
  const report = await (await request("/v1/evaluations/again-1/report?format=json")).json();
  assert.equal(report.timing.units.computed, 0);
  assert.equal(report.timing.units.reused, 7); // 2 runs, then 3 + 2 judgments (one has no reference)
});

Deno.test("POST /v1/evaluations with the named smoke dataset ingests the demo corpus and evaluates it", async () => {
  const { request, background } = evaluationsApp();
  const started = await request("/v1/evaluations", {
    dataset: { name: "smoke" },
    variants: ["none"],
    limit: 2,
  });
  assert.equal(started.status, 202);
  await Promise.all(background);
  const status = await (await request((await started.json()).status_url)).json();
  assert.equal(status.status, "done");
  assert.equal(status.dataset, "smoke");
  assert.equal(status.summary[0].runs, 2);
  assert.equal(status.summary[0].hit_at_k.value, 1);
});

Deno.test("POST /v1/evaluations refuses bad bodies with a 400 naming the field; unknown ids are 404", async () => {
  const { request, background } = evaluationsApp();
  const cases: [unknown, RegExp][] = [
    [
      { dataset: { questions: QUESTIONS }, variants: ["three-turn"] },
      /variants: "three-turn" is not a variant/,
    ],
    [{ dataset: { questions: [] }, variants: ["none"] }, /dataset/],
    [{ dataset: { questions: [{ question: "" }] } }, /dataset/],
    [
      { dataset: { name: "nope" }, variants: ["none"] },
      /dataset\.name: must be one of smoke, nightly/,
    ],
    [{ dataset: { questions: QUESTIONS }, run_id: "../x" }, /run_id/],
  ];
  for (const [body, message] of cases) {
    const response = await request("/v1/evaluations", body);
    assert.equal(response.status, 400, JSON.stringify(body));
    assert.match((await response.json()).error.message, message);
  }
  assert.equal(background.length, 0);
  assert.equal((await request("/v1/evaluations/eval-missing")).status, 404);
  assert.equal((await request("/v1/evaluations/eval-missing/report")).status, 404);
});

Deno.test("a queued evaluation runs a slice of questions per message, then writes its report", async () => {
  const sent: JobMessage[] = [];
  const queue = new (class extends MemoryJobBackend {
    override enqueue(message: JobMessage, options?: { delayMs?: number }) {
      sent.push(message);
      return super.enqueue(message, options);
    }
  })();
  const app = createSiftApp({ runtime: new Runtime({ jobs: () => queue }) });
  const env = { ...ENV, EVAL_SLICE_QUESTIONS: "1" };
  const post = (path: string, body: unknown) =>
    app.request(path, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }, env);
  assert.equal(
    (await post("/v1/documents", { documents: CORPUS, namespace: "evals" })).status,
    201,
  );
  const started = await post("/v1/evaluations", {
    dataset: { questions: [...QUESTIONS, { question: "What is BM25?", target_doc: null }] },
    variants: "none,one-turn",
    namespace: "evals",
  });
  assert.equal(started.status, 202);
  const { id } = await started.json();
  let status: { status: string; progress: { done: number; total: number } | null } | undefined;
  for (let i = 0; i < 300; i++) {
    status = await (await app.request(`/v1/evaluations/${id}`, {}, env)).json();
    if (status!.status !== "running") break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  queue.close();
  assert.equal(status!.status, "done");
  assert.equal(status!.progress!.done, status!.progress!.total);
  assert.deepEqual(sent.map((message) => "from" in message ? message.from : -1), [0, 1, 2]);
  const report = await (await app.request(`/v1/evaluations/${id}/report?format=json`, {}, env))
    .json();
  assert.equal(report.dataset.questions, 3);
  assert.ok(report.timing.units.reused > 0, "the last pass reuses what the slices computed");
  // A repeated message for a finished run does nothing.
  const again = await post(`/v1/evaluations/${id}/continue`, { from: 0 });
  assert.deepEqual(await again.json(), { id, status: "done" });
});

Deno.test("POST /v1/evaluations with repeat runs each question again, asking the model anew", async () => {
  const { request, background } = await ingested();
  const refused = await request("/v1/evaluations", {
    dataset: { questions: QUESTIONS },
    repeat: 21,
  });
  assert.equal(refused.status, 400);
  assert.match((await refused.json()).error.message, /^repeat: /);

  const started = await request("/v1/evaluations", {
    dataset: { questions: QUESTIONS.slice(0, 1) },
    variants: ["one-turn"],
    namespace: "evals",
    repeat: 2,
    // One at a time: the second run starts after the first filled the caches.
    concurrency: 1,
  });
  assert.equal(started.status, 202);
  await Promise.all(background);
  const { report_url } = await started.json();
  const report = await (await request(`${report_url}?format=json`)).json();
  assert.equal(report.config.repeat, 2);
  assert.deepEqual(report.queries.map((query: { repetition: number }) => query.repetition), [1, 2]);
  const rerankTokens = report.queries.map((query: {
    variants: Record<string, { run: { steps: { name: string; tokens_in: number }[] } }>;
  }) => query.variants["one-turn"]!.run.steps.find((step) => step.name === "rerank")!.tokens_in);
  assert.ok(
    rerankTokens[0] > 0 && rerankTokens[1] > 0,
    `not served from the cache: ${rerankTokens}`,
  );
  // RAGElo's MRR@5 from the judged retrieved passages, beside the kept-list figure.
  const [summary] = report.summary;
  assert.equal(summary.runs, 2);
  assert.equal(summary.mrr_at_5.n, 2);
  assert.equal(summary.kept_mrr.n, 2);
  const { run, retrieval } = report.queries[0].variants["one-turn"];
  assert.ok(run.retrieved.length > run.kept.length, "more retrieved than kept");
  assert.equal(retrieval.retrieved_judgments.length, Math.min(5, run.retrieved.length));
  assert.ok(retrieval.judgments.length <= 3);
  assert.ok(Array.isArray(report.elo_first_order));
  assert.ok("both_orders" in report.tie_rates);
});

Deno.test("POST /v1/evaluations takes ITEM's, ToT-RAG's and RAGElo's grid options as variants, strictly", async () => {
  const { request, background } = evaluationsApp();
  const refused: [unknown, RegExp][] = [
    [[{ strategy: "item", itme: { variant: "A_r" } }], /itme/],
    [[{ strategy: "item", item: { variant: "A_r", judgement: "pointwise" } }], /judgement/],
    [[{ strategy: "tot", tot: { unit: "sentence", nodes: 3 } }], /nodes/],
    [[{ strategy: "one-turn", mode: "bm25" }], /mode/],
    [[{ strategy: "one-turn", tot: { unit: "sentence" } }], /only strategy tot takes these/],
    [["item:A_r:pointwise"], /pointwise judgments need item variant A_s/],
    [["tot:cut0"], /tot has no option "cut0"/],
    [["one-turn@knn"], /"one-turn@knn" is not a variant/],
  ];
  for (const [variants, message] of refused) {
    const response = await request("/v1/evaluations", {
      dataset: { questions: QUESTIONS },
      variants,
    });
    assert.equal(response.status, 400, JSON.stringify(variants));
    assert.match((await response.json()).error.message, message, JSON.stringify(variants));
  }
  assert.equal(background.length, 0);
  const started = await request("/v1/evaluations", {
    dataset: { questions: QUESTIONS.slice(0, 1) },
    variants: [
      "none@sparse",
      {
        strategy: "item",
        item: { variant: "A_r", answer: "implicit", start: "top5" },
        mode: "dense",
      },
      { strategy: "tot", tot: { unit: "sentence", cut: 2 }, fusion: true },
    ],
    games_per_query: 0,
  });
  assert.equal(started.status, 202, await started.clone().text());
  await Promise.all(background);
  const status = await (await request((await started.json()).status_url)).json();
  assert.deepEqual(status.summary.map((variant: { variant: string }) => variant.variant), [
    "none@sparse",
    "item:A_r:implicit:top5@dense",
    "tot:sentence:cut2+fusion",
  ]);
});

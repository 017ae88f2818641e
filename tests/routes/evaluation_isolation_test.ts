/** Issue #11: a run id is bound to its dataset, scheduled ids are the scheduler's, a dataset URL is fetched once a run. */
import assert from "node:assert/strict";
import { createSiftApp } from "../../app.ts";
import { Runtime } from "../../compose/runtime.ts";
import { NoQueueJobBackend } from "../../adapters/workers/queue-jobs.ts";

const QUESTIONS = [{ id: "rrf", question: "How does reciprocal rank fusion score a document?" }];
const OTHER = [{ id: "rrf", question: "How long does sourdough proof?" }];

/** The app as a Worker without a queue: background work is handed over and awaited by the test. */
function evaluationsApp(env: Record<string, string> = {}) {
  const app = createSiftApp({ runtime: new Runtime({ jobs: () => new NoQueueJobBackend() }) });
  const background: Promise<unknown>[] = [];
  const context = {
    waitUntil: (work: Promise<unknown>) => background.push(work),
    passThroughOnException() {},
    props: {},
  };
  const request = (path: string, body: unknown) =>
    app.request(
      path,
      {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      },
      { DEMO_CORPUS: "false", ...env },
      context,
    );
  const settled = () => Promise.all(background.splice(0));
  return { request, settled };
}

/** An app whose default namespace holds the one document the questions are about. */
async function ingestedApp(env: Record<string, string> = {}) {
  const app = evaluationsApp(env);
  const ingested = await app.request("/v1/documents", {
    documents: [{
      id: "rrf",
      text: "Reciprocal rank fusion scores a document by Σ 1/(60 + rank).",
    }],
  });
  assert.equal(ingested.status, 201);
  return app;
}

Deno.test("a run_id reused for another dataset is a 409; the same dataset resumes", async () => {
  const { request, settled } = await ingestedApp();
  const start = (dataset: unknown) =>
    request("/v1/evaluations", { dataset, variants: ["none"], run_id: "bound-1" });
  assert.equal((await start({ questions: QUESTIONS })).status, 202);
  await settled();
  for (const dataset of [{ questions: OTHER }, { name: "smoke" }]) {
    const refused = await start(dataset);
    assert.equal(refused.status, 409, JSON.stringify(dataset));
    const body = await refused.json();
    assert.equal(body.error.type, "conflict");
    assert.match(body.error.message, /^run_id: bound-1 belongs to another dataset/);
  }
  assert.equal((await start({ questions: QUESTIONS })).status, 202, "the same questions resume");
  await settled();
});

Deno.test("scheduled run ids are not writable by callers", async () => {
  const { request, settled } = await ingestedApp();
  for (const runId of ["nightly-2026-01-01", "Nightly-x"]) {
    const refused = await request("/v1/evaluations", {
      dataset: { questions: QUESTIONS },
      variants: ["none"],
      run_id: runId,
    });
    assert.equal(refused.status, 400);
    assert.match((await refused.json()).error.message, /^run_id: must not start with "nightly-"/);
  }
  const forged = await request("/v1/evaluations/nightly-2026-01-01/continue", { from: 0 });
  assert.equal(forged.status, 404, "a caller cannot drive (or fail) a scheduled run");
  await settled();
});

Deno.test("the nightly dataset's URL is fetched once per run, however often the run is started", async () => {
  let fetches = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => {
    fetches++;
    return new Response(`${JSON.stringify(QUESTIONS[0])}\n`);
  });
  try {
    const { request, settled } = await ingestedApp({
      EVAL_DATASET_URL: `http://127.0.0.1:${server.addr.port}/questions.jsonl`,
    });
    const start = () =>
      request("/v1/evaluations", {
        dataset: { name: "nightly" },
        variants: ["none"],
        run_id: "from-url",
      });
    for (let attempt = 0; attempt < 3; attempt++) {
      assert.equal((await start()).status, 202);
      await settled();
    }
    assert.equal(fetches, 1);
    const other = await request("/v1/evaluations", {
      dataset: { name: "nightly" },
      variants: ["none"],
    });
    assert.equal(other.status, 202);
    await settled();
    assert.equal(fetches, 2, "a new run fetches it anew");
  } finally {
    await server.shutdown();
  }
});

/**
 * "Degrade, don't fail": a failing embeddings provider leaves routes that need
 * no model or index untouched, and turns dense and hybrid retrieval into BM25
 * marked `degraded` instead of an error.
 */
import assert from "node:assert/strict";
import { createSiftApp } from "../../app.ts";
import { CORPUS } from "./corpus.ts";
import { readEvents } from "./helpers.ts";

const FAILING = { OFFLINE_MODEL_FAULTS: "http500=1", LLM_TIMEOUT_MS: "2000" };
const QUIET = { DEMO_CORPUS: "false" };

function poster(app: ReturnType<typeof createSiftApp>, env: Record<string, string>) {
  return (path: string, body: unknown) =>
    app.request(path, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }, env);
}

/** Runs `body` with `console.warn` silenced: the fallbacks log on purpose. */
async function quietly<T>(body: () => Promise<T>): Promise<T> {
  const original = console.warn;
  console.warn = () => {};
  try {
    return await body();
  } finally {
    console.warn = original;
  }
}

Deno.test("with embeddings failing, /healthz answers 200 and says embeddings: down", async () => {
  const app = createSiftApp();
  const response = await quietly(async () => await app.request("/healthz", {}, FAILING));
  assert.equal(response.status, 200);
  const body = await response.json();
  assert.equal(body.status, "degraded");
  assert.equal(body.checks.embeddings, "down");
  assert.equal(body.checks.index, "ok");
});

Deno.test("routes that need no index answer while the demo corpus cannot load", async () => {
  const app = createSiftApp();
  const post = poster(app, FAILING);
  await quietly(async () => {
    assert.equal((await post("/v1/judge/agreement", { x: [1, 2, 3], y: [1, 3, 2] })).status, 200);
    const fused = await post("/v1/fuse", { rankings: [["a", "b"], ["b", "c"]] });
    assert.equal(fused.status, 200);
    assert.equal((await fused.json()).results[0].id, "b");
    assert.equal((await app.request("/openapi.json", {}, FAILING)).status, 200);
  });
});

Deno.test("a failed demo corpus load is retried on a later request", async () => {
  const app = createSiftApp();
  const query = { query: "What is reciprocal rank fusion?", mode: "sparse", top_k: 3 };
  const failed = await quietly(async () => await poster(app, FAILING)("/v1/search", query));
  assert.equal(failed.status, 200);
  assert.deepEqual((await failed.json()).results, []);
  const healthy = await poster(app, {})("/v1/search", query);
  assert.ok((await healthy.json()).results.length > 0, "the demo corpus loads once it can");
});

Deno.test("hybrid /v1/search falls back to BM25 marked degraded when embeddings fail", async () => {
  const app = createSiftApp();
  assert.equal((await poster(app, QUIET)("/v1/documents", { documents: CORPUS })).status, 201);
  const failing = poster(app, { ...QUIET, ...FAILING });
  for (const mode of ["hybrid", "dense"]) {
    const response = await quietly(async () =>
      await failing("/v1/search", { query: "reciprocal rank fusion", mode })
    );
    assert.equal(response.status, 200);
    const body = await response.json();
    assert.equal(body.degraded, true);
    assert.match(body.reason, /sparse \(BM25\)/);
    assert.ok(body.results.length > 0, `${mode}: BM25 still finds passages`);
  }
  const sparse = await failing("/v1/search", { query: "reciprocal rank fusion", mode: "sparse" });
  assert.equal((await sparse.json()).degraded, undefined, "sparse asked is not degraded");
});

Deno.test("/v1/fuse and /v1/query say degraded and still end in done", async () => {
  const app = createSiftApp();
  assert.equal((await poster(app, QUIET)("/v1/documents", { documents: CORPUS })).status, 201);
  const failing = poster(app, { ...QUIET, ...FAILING });
  await quietly(async () => {
    const fused =
      await (await failing("/v1/fuse", { query: "reciprocal rank fusion", variations: 0 })).json();
    assert.equal(fused.degraded, true);
    assert.match(fused.reason, /sparse \(BM25\)/);
    assert.ok(fused.results.length > 0);

    const events = await readEvents(
      await failing("/v1/query", { query: "What is reciprocal rank fusion?" }),
    );
    const retrieval = events.find((event) => event.event === "retrieval-end")!.data as {
      degraded?: boolean;
      reason?: string;
      results: unknown[];
    };
    assert.equal(retrieval.degraded, true);
    assert.match(retrieval.reason ?? "", /sparse \(BM25\)/);
    assert.ok(retrieval.results.length > 0);
    assert.equal(events.at(-1)?.event, "done");
  });
});

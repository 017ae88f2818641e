/**
 * A rerank strategy is one declaration and one runner: a toy strategy added
 * here, with no other edit, is taken by `/v1/rerank`, `/v2/rerank`,
 * `/v1/query`'s rerank step, the evaluation's variants and `deno task ask`.
 */
import assert from "node:assert/strict";
import { defineRerankStrategy, rerankStrategyNames } from "../../shared/rerank/strategies.ts";
import { addRerankRunner, strategiesWithoutRunner } from "../../functions/rerank/runners.ts";
import { variantPipeline } from "../../functions/evaluate/variants.ts";
import { oneTurnRubric } from "../../prompts/rerank-one-turn.ts";
import { errorMessageOf, readEvents, testApp } from "./helpers.ts";
import { ingestable, RERANK_DOCUMENTS, RERANK_QUERY } from "./rerank_corpus.ts";
import { SERVE_PERMISSIONS } from "../e2e/service.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

// The toy: the documents in reverse, scores 1/(rank + 1), no model call.
defineRerankStrategy({
  name: "reverse",
  summary: "the documents in reverse order (a test's toy)",
  usesModel: true,
  rubric: "none",
  refusesWeights: "only reverses the list",
  unitScores: true,
});
addRerankRunner("reverse", {
  run: (_deps, request) => {
    const order = request.documents.map((_, index) => index).reverse()
      .slice(0, request.top_n ?? request.documents.length);
    return Promise.resolve({
      results: order.map((index, rank) => ({
        index,
        relevance_score: 1 / (rank + 1),
        scores: null,
      })),
      discarded: [],
      usage: { tokens_in: 0, tokens_out: 0, llm_calls: 0, cached: false },
      degraded: false,
    });
  },
});

const DOCUMENTS = ["first", "second", "third"];

Deno.test("every strategy defined has a runner", () => {
  assert.deepEqual(strategiesWithoutRunner(), []);
  assert.ok(rerankStrategyNames().includes("reverse"));
});

Deno.test("/v1/rerank and /v2/rerank take a strategy added at run time", async () => {
  const { post } = testApp();
  const native = await post("/v1/rerank", {
    query: "q",
    documents: DOCUMENTS,
    strategy: "reverse",
  });
  assert.equal(native.status, 200);
  const body = await native.json() as { results: { index: number }[] };
  assert.deepEqual(body.results.map((result) => result.index), [2, 1, 0]);

  const cohere = await post("/v2/rerank", {
    model: "sift-reverse",
    query: "q",
    documents: DOCUMENTS,
    top_n: 2,
  });
  assert.equal(cohere.status, 200);
  const ranked = await cohere.json() as { results: { index: number; relevance_score: number }[] };
  assert.deepEqual(ranked.results.map((result) => result.index), [2, 1]);
  assert.equal(ranked.results[0]!.relevance_score, 1);

  // What it declares it refuses is a 400 naming the field, like a built-in's.
  for (
    const [extra, field] of [[{ weights: 1 }, "weights"], [{ item: {} }, "item"], [{
      rubric: oneTurnRubric,
    }, "rubric"]] as const
  ) {
    const refused = await post("/v1/rerank", {
      query: "q",
      documents: DOCUMENTS,
      strategy: "reverse",
      ...extra,
    });
    assert.equal(refused.status, 400, field);
    assert.match(errorMessageOf(await refused.json()), new RegExp(`^${field}: `));
  }
  const unknown = await post("/v1/rerank", { query: "q", documents: DOCUMENTS, strategy: "nope" });
  assert.equal(unknown.status, 400);
  assert.match(errorMessageOf(await unknown.json()), /strategy: must be one of .*reverse/);
});

Deno.test("/v1/query runs the added strategy as its rerank step", async () => {
  const { post } = testApp();
  const ingest = await post("/v1/documents", { documents: RERANK_DOCUMENTS.map(ingestable) });
  assert.equal(ingest.status, 201, await ingest.clone().text());
  const response = await post("/v1/query", {
    query: RERANK_QUERY,
    pipeline: { rerank: { strategy: "reverse", top_n: 2 } },
  });
  assert.equal(response.status, 200);
  const events = await readEvents(response);
  const end = events.find((event) => event.event === "rerank-end");
  assert.ok(end, events.map((event) => event.event).join(", "));
  // The toy reverses what retrieval found (10 by default ahead of a rerank) and keeps 2.
  const retrieved = events.find((event) => event.event === "retrieval-end")!.data as {
    results: { id: string }[];
  };
  const kept = (end.data as { results: { index: number }[] }).results
    .map((result) => retrieved.results[result.index]!);
  assert.deepEqual(
    kept.map((hit) => hit.id),
    retrieved.results.map((hit) => hit.id).reverse().slice(0, 2),
  );
});

Deno.test("the evaluation's variants name the added strategy", () => {
  const pipeline = variantPipeline("reverse@sparse+fusion", "docs");
  assert.equal(pipeline.rerank?.strategy, "reverse");
  assert.equal(pipeline.rerank?.top_n, 3);
  assert.equal(pipeline.retrieval.mode, "sparse");
  assert.throws(() => variantPipeline("reverse:x", "docs"), /only item and tot take options/);
});

Deno.test("deno task ask --rerank takes a strategy its server defines", async () => {
  const { app, env } = testApp();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (request) => app.fetch(request, env),
  );
  try {
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["run", ...SERVE_PERMISSIONS, "scripts/ask.ts", "What is sift?", "--rerank", "reverse"],
      cwd: ROOT,
      env: { NO_COLOR: "1", SIFT_URL: `http://127.0.0.1:${server.addr.port}` },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stdout = new TextDecoder().decode(output.stdout);
    assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
    assert.match(stdout, /reranked, kept \d+:/);
  } finally {
    await server.shutdown();
  }
});

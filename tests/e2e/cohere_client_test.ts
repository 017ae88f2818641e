/**
 * The official `cohere-ai` client, pointed at sift over real HTTP, reranks
 * with every `sift-*` model: what a Cohere user gets by changing the base URL.
 */
import assert from "node:assert/strict";
import { Cohere, CohereClientV2 } from "cohere-ai";
import { createSiftApp } from "../../app.ts";
import { RERANK_DOCUMENTS, RERANK_QUERY } from "../routes/rerank_corpus.ts";

const MODELS = ["sift-one-turn", "sift-two-turn", "sift-relevance", "sift-two-turn-relevance"];
const DOCUMENTS = RERANK_DOCUMENTS.map((document) => document.text);

/** sift on a free port, with the environment a fresh install would have (no demo corpus). */
function serveSift(env: Record<string, string>) {
  const app = createSiftApp();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (request) => app.fetch(request, env),
  );
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

function cohereClient(url: string, token = "unused") {
  return new CohereClientV2({ environment: url, token, maxRetries: 0, timeoutInSeconds: 30 });
}

Deno.test("the cohere-ai client gets a valid reranking from /v2/rerank for each sift-* model", async () => {
  await using sift = serveSift({ DEMO_CORPUS: "false" });
  const client = cohereClient(sift.url);
  for (const model of MODELS) {
    const response = await client.rerank({
      model,
      query: RERANK_QUERY,
      documents: DOCUMENTS,
      topN: 3,
    });
    assert.equal(typeof response.id, "string", model);
    assert.ok(response.results.length >= 1 && response.results.length <= 3, model);
    const indices = response.results.map((result) => result.index);
    assert.equal(new Set(indices).size, indices.length, `${model}: unique indices`);
    for (const result of response.results) {
      assert.ok(Number.isInteger(result.index), model);
      assert.ok(result.index >= 0 && result.index < DOCUMENTS.length, `${model}: index in range`);
      assert.ok(result.relevanceScore >= 0 && result.relevanceScore <= 1, `${model}: score`);
    }
    const scores = response.results.map((result) => result.relevanceScore);
    assert.deepEqual(scores, [...scores].sort((a, b) => b - a), `${model}: best first`);
    assert.equal(RERANK_DOCUMENTS[indices[0]!]!.id, "bm25-paper", model);
    assert.equal(response.meta?.apiVersion?.version, "2");
  }
});

Deno.test("the cohere-ai client sends its token, which sift checks when API_KEYS is set", async () => {
  await using sift = serveSift({ DEMO_CORPUS: "false", API_KEYS: "key-one" });
  const request = {
    model: "sift-relevance",
    query: RERANK_QUERY,
    documents: DOCUMENTS.slice(0, 3),
  };
  const response = await cohereClient(sift.url, "key-one").rerank(request);
  assert.ok(response.results.length > 0);
  await assert.rejects(
    () => cohereClient(sift.url, "wrong").rerank(request),
    Cohere.UnauthorizedError,
  );
});

Deno.test("the cohere-ai client surfaces an unknown model as its BadRequestError", async () => {
  await using sift = serveSift({ DEMO_CORPUS: "false" });
  const client = cohereClient(sift.url);
  await assert.rejects(
    () =>
      client.rerank({
        model: "rerank-v3.5",
        query: RERANK_QUERY,
        documents: DOCUMENTS.slice(0, 2),
      }),
    (error: unknown) => {
      assert.ok(error instanceof Cohere.BadRequestError, String(error));
      assert.equal(error.statusCode, 400);
      const message = JSON.stringify(error.body);
      for (const model of MODELS) assert.ok(message.includes(model), message);
      return true;
    },
  );
});

Deno.test("the cohere-ai client gets a ToT-RAG ranking from sift-tot, scored by mean level-2 similarity", async () => {
  await using sift = serveSift({ DEMO_CORPUS: "false" });
  const response = await cohereClient(sift.url).rerank({
    model: "sift-tot",
    query: RERANK_QUERY,
    documents: DOCUMENTS,
  });
  const indices = response.results.map((result) => result.index);
  // Every document, the ones the tree dropped last: unique, in range and best first.
  assert.equal(indices.length, DOCUMENTS.length, `${indices}`);
  assert.equal(new Set(indices).size, indices.length);
  for (const index of indices) assert.ok(Number.isInteger(index) && index < DOCUMENTS.length);
  const scores = response.results.map((result) => result.relevanceScore);
  assert.ok(scores.every((score) => score >= 0 && score <= 1), `${scores}`);
  assert.deepEqual(scores, [...scores].sort((a, b) => b - a));
  assert.equal(RERANK_DOCUMENTS[indices[0]!]!.id, "bm25-paper");
  const cats = indices.findIndex((index) => RERANK_DOCUMENTS[index]!.id === "cats");
  const dropped = (response as unknown as { discarded: { index: number }[] }).discarded;
  assert.ok(dropped.some((entry) => RERANK_DOCUMENTS[entry.index]!.id === "cats"));
  assert.ok(cats >= DOCUMENTS.length - dropped.length, "a dropped document comes last");
});

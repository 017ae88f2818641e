/**
 * Cohere's v1 rerank clients, unmodified but for the base URL, over real HTTP
 * to sift: `cohere-ai`'s `CohereClient` and LangChain's `CohereRerank` with
 * the v1 client it builds by default. Both post Cohere's v1 body to
 * `/v1/rerank`, which answers it as Cohere v1 would (sift's native body, on
 * the same path, keeps its own reply).
 */
import assert from "node:assert/strict";
import { Cohere, CohereClient } from "cohere-ai";
import { CohereRerank } from "@langchain/cohere";
import { Document } from "@langchain/core/documents";
import { createSiftApp } from "../../app.ts";
import { RERANK_DOCUMENTS, RERANK_QUERY } from "../routes/rerank_corpus.ts";

const TEN = RERANK_DOCUMENTS.slice(0, 10).map((document) => document.text);

type LangChainClient = NonNullable<
  NonNullable<ConstructorParameters<typeof CohereRerank>[0]>["client"]
>;

function serveSift() {
  const app = createSiftApp();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (request) => app.fetch(request, { DEMO_CORPUS: "false" }),
  );
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

function assertBestFirst(scores: number[], label: string) {
  assert.deepEqual(scores, [...scores].sort((a, b) => b - a), `${label}: best first`);
  assert.ok(scores.every((score) => score >= 0 && score <= 1), `${label}: scores in [0, 1]`);
}

Deno.test("cohere-ai's v1 CohereClient.rerank gets Cohere v1 replies from /v1/rerank", async () => {
  await using sift = serveSift();
  const client = new CohereClient({ environment: sift.url, token: "unused", maxRetries: 0 });
  for (const model of ["sift-one-turn", "sift-relevance", "sift-tot"]) {
    const response = await client.rerank({
      model,
      query: RERANK_QUERY,
      documents: TEN,
      topN: 4,
      returnDocuments: true,
    });
    assert.equal(response.results.length, 4, model);
    assert.equal(response.meta?.apiVersion?.version, "1", model);
    assertBestFirst(response.results.map((result) => result.relevanceScore), model);
    for (const result of response.results) {
      assert.equal(result.document?.text, TEN[result.index], model);
    }
  }
  // A Cohere model name is Cohere's 400, in the shape its client reads.
  await assert.rejects(
    () => client.rerank({ model: "rerank-v3.5", query: RERANK_QUERY, documents: TEN }),
    (error) => {
      assert.ok(error instanceof Cohere.BadRequestError, String(error));
      const body = error.body as { message: string };
      assert.match(body.message, /^model: unknown model "rerank-v3\.5"; valid models: sift-/);
      return true;
    },
  );
});

Deno.test("LangChain's CohereRerank with its default (v1) client compresses documents through sift", async () => {
  await using sift = serveSift();
  // What getCohereClient() builds without a `client`, pointed at sift instead of api.cohere.com.
  const client = new CohereClient({ environment: sift.url, token: "unused", maxRetries: 0 });
  const compressor = new CohereRerank({
    client: client as unknown as LangChainClient,
    model: "sift-one-turn",
    topN: 3,
  });
  const compressed = await compressor.compressDocuments(
    TEN.map((text, index) => new Document({ pageContent: text, metadata: { index } })),
    RERANK_QUERY,
  );
  assert.equal(compressed.length, 3);
  assertBestFirst(compressed.map((document) => document.metadata.relevanceScore as number), "lc");
  const ranked = await compressor.rerank(TEN, RERANK_QUERY, { topN: 2 });
  assert.equal(ranked.length, 2);
});

Deno.test("/v1/rerank keeps sift's own reply and errors for a native body", async () => {
  await using sift = serveSift();
  const post = (body: unknown) =>
    fetch(`${sift.url}/v1/rerank`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const native = await post({ query: RERANK_QUERY, documents: TEN.slice(0, 3), strategy: "none" });
  assert.equal(native.status, 200);
  const reply = await native.json() as { results: { scores: unknown }[]; meta?: unknown };
  assert.ok(reply.results.length > 0 && reply.meta === undefined);
  const bad = await post({ query: RERANK_QUERY, documents: [], strategy: "one-turn" });
  assert.equal(bad.status, 400);
  const { error } = await bad.json() as { error: { type: string; message: string } };
  assert.equal(error.type, "invalid_request");
  assert.match(error.message, /^documents: /);
});

Deno.test("cohere-ai's v1 rerank without model gets top_n Cohere results scored in [0, 1]", async () => {
  await using sift = serveSift();
  const client = new CohereClient({ environment: sift.url, token: "unused", maxRetries: 0 });
  // Cohere's v1 makes `model` optional: the body is then {query, documents, top_n}.
  const response = await client.rerank({
    query: RERANK_QUERY,
    documents: TEN.slice(0, 3),
    topN: 2,
  });
  assert.equal(response.results.length, 2);
  assert.equal(response.meta?.apiVersion?.version, "1");
  assertBestFirst(response.results.map((result) => result.relevanceScore), "no model");
  const all = await client.rerank({ query: RERANK_QUERY, documents: TEN.slice(0, 3) });
  assert.equal(all.results.length, 3, "every document without topN, as Cohere answers");
  assertBestFirst(all.results.map((result) => result.relevanceScore), "no topN");
});

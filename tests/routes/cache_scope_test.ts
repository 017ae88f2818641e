import assert from "node:assert/strict";
import { CACHE_SCOPE_HEADER } from "../../shared/cache/scope.ts";
import { CORPUS } from "./corpus.ts";
import { type ErrorBody, readEvents, testApp } from "./helpers.ts";
import { RERANK_DOCUMENTS, RERANK_QUERY } from "./rerank_corpus.ts";

type Usage = { llm_calls: number; cached: boolean };

Deno.test(`${CACHE_SCOPE_HEADER} gives a request cached results of its own`, async () => {
  const { post } = testApp();
  const body = { query: RERANK_QUERY, documents: RERANK_DOCUMENTS, strategy: "one-turn" };
  const usage = async (headers: Record<string, string> = {}) => {
    const response = await post("/v1/rerank", body, headers);
    assert.equal(response.status, 200);
    return (await response.json() as { usage: Usage }).usage;
  };
  assert.equal((await usage()).cached, false);
  assert.equal((await usage()).cached, true, "the same request is served from the cache");
  const scoped = await usage({ [CACHE_SCOPE_HEADER]: "repeat-2" });
  assert.deepEqual([scoped.cached, scoped.llm_calls], [false, 2], "asked again in a new scope");
  assert.equal((await usage({ [CACHE_SCOPE_HEADER]: "repeat-2" })).cached, true);
  assert.equal((await usage({ [CACHE_SCOPE_HEADER]: "repeat-3" })).cached, false);
});

Deno.test(`${CACHE_SCOPE_HEADER} reaches the pipeline's steps, and a malformed one is a 400`, async () => {
  const { post } = testApp();
  assert.equal((await post("/v1/documents", { documents: CORPUS })).status, 201);
  const body = {
    query: "How does reciprocal rank fusion score a document?",
    pipeline: { rerank: { strategy: "one-turn" } },
  };
  const rerankTokens = async (headers: Record<string, string> = {}) => {
    const events = await readEvents(await post("/v1/query", body, headers));
    const usage = events.find((event) => event.event === "usage")!.data as {
      steps: { name: string; tokens_in: number }[];
    };
    return usage.steps.find((step) => step.name === "rerank")!.tokens_in;
  };
  assert.ok(await rerankTokens() > 0);
  assert.equal(await rerankTokens(), 0, "the rerank step's reply came from the cache");
  assert.ok(await rerankTokens({ [CACHE_SCOPE_HEADER]: "repeat-2" }) > 0, "the rerank ran again");

  const refused = await post("/v1/rerank", { query: "x", documents: ["y"] }, {
    [CACHE_SCOPE_HEADER]: "two words",
  });
  assert.equal(refused.status, 400);
  assert.match((await refused.json() as ErrorBody).error.message, /^x-sift-cache-scope: /);
});

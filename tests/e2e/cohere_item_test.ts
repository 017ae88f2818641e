/**
 * The official `cohere-ai` client, pointed at sift over real HTTP, gets a
 * ranking from model `sift-item` (ITEM's iterative utility judgments).
 */
import assert from "node:assert/strict";
import { CohereClientV2 } from "cohere-ai";
import { createSiftApp } from "../../app.ts";
import { RERANK_DOCUMENTS, RERANK_QUERY } from "../routes/rerank_corpus.ts";

const DOCUMENTS = RERANK_DOCUMENTS.map((document) => document.text);
const OFF_TOPIC = new Set(["cats", "sourdough", "tides", "volcano", "chess", "gardening"]);

Deno.test("the cohere-ai client gets a ranking from /v2/rerank with model sift-item", async () => {
  const app = createSiftApp();
  await using server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (request) => app.fetch(request, { DEMO_CORPUS: "false" }),
  );
  const client = new CohereClientV2({
    environment: `http://127.0.0.1:${server.addr.port}`,
    token: "unused",
    maxRetries: 0,
    timeoutInSeconds: 30,
  });
  const response = await client.rerank({
    model: "sift-item",
    query: RERANK_QUERY,
    documents: DOCUMENTS,
    topN: 4,
  });
  assert.equal(response.results.length, 4);
  const indices = response.results.map((result) => result.index);
  assert.equal(new Set(indices).size, 4, "unique indices");
  for (const result of response.results) {
    assert.ok(
      Number.isInteger(result.index) && result.index >= 0 && result.index < DOCUMENTS.length,
    );
    assert.ok(result.relevanceScore > 0.5 && result.relevanceScore <= 1, "the utility set");
    assert.ok(!OFF_TOPIC.has(RERANK_DOCUMENTS[result.index]!.id), "no off-topic document kept");
  }
  const scores = response.results.map((result) => result.relevanceScore);
  assert.deepEqual(scores, [...scores].sort((a, b) => b - a), "best first");
  assert.equal(response.meta?.apiVersion?.version, "2");
});

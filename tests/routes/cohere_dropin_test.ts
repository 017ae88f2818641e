/**
 * `/v2/rerank` as a drop-in for Cohere's (#19): `min(top_n, documents)`
 * results for every model, the discarded ones last and named, Cohere's
 * documented parameters with their meaning, anything else refused.
 */
import assert from "node:assert/strict";
import { testApp } from "./helpers.ts";
import { RERANK_DOCUMENTS, RERANK_QUERY } from "./rerank_corpus.ts";

type CohereBody = {
  results: { index: number; relevance_score: number; document?: unknown }[];
  discarded: { index: number; reason: string }[];
};

const MODELS = [
  "sift-one-turn",
  "sift-two-turn",
  "sift-relevance",
  "sift-two-turn-relevance",
  "sift-item",
  "sift-tot",
];
const TEN = RERANK_DOCUMENTS.slice(0, 10).map((document) => document.text);
const WEAK = ["Cats are small domesticated mammals.", "Tomatoes need full sun."];

async function rerankV2(body: Record<string, unknown>): Promise<CohereBody> {
  const response = await testApp().post("/v2/rerank", body);
  const text = await response.text();
  assert.equal(response.status, 200, text);
  return JSON.parse(text);
}

/** Unique indices in range, scores best first in [0, 1], discarded ones after the kept ones. */
function assertDropIn(body: CohereBody, documents: number, expected: number, label: string) {
  assert.equal(body.results.length, expected, label);
  const indices = body.results.map((result) => result.index);
  assert.equal(new Set(indices).size, indices.length, label);
  for (const index of indices) assert.ok(index >= 0 && index < documents, label);
  const scores = body.results.map((result) => result.relevance_score);
  assert.ok(scores.every((score) => score >= 0 && score <= 1), `${label}: ${scores}`);
  assert.deepEqual(scores, [...scores].sort((a, b) => b - a), `${label}: best first`);
  const dropped = new Set(body.discarded.map((entry) => entry.index));
  const firstDropped = body.results.findIndex((result) => dropped.has(result.index));
  if (firstDropped === -1) return;
  assert.ok(
    body.results.slice(firstDropped).every((result) => dropped.has(result.index)),
    `${label}: discarded ones come last`,
  );
  if (firstDropped > 0) {
    const lowestKept = Math.min(...scores.slice(0, firstDropped));
    assert.ok(scores.slice(firstDropped).every((score) => score < lowestKept), label);
  }
}

Deno.test("/v2/rerank answers min(top_n, documents) results for every model, discarded last", async () => {
  for (const model of MODELS) {
    for (const topN of [1, 3, 10, 50, undefined]) {
      const body = await rerankV2({
        model,
        query: RERANK_QUERY,
        documents: TEN,
        ...(topN ? { top_n: topN } : {}),
      });
      assertDropIn(body, TEN.length, Math.min(topN ?? TEN.length, TEN.length), `${model} ${topN}`);
    }
    const weak = await rerankV2({ model, query: RERANK_QUERY, documents: WEAK, top_n: 2 });
    assertDropIn(weak, WEAK.length, 2, `${model} weak`);
  }
});

Deno.test("/v2/rerank sift-relevance with top_n 3 and return_documents gives 3 results with their text", async () => {
  const documents = RERANK_DOCUMENTS.slice(0, 3).map((document) => document.text);
  const body = await rerankV2({
    model: "sift-relevance",
    query: RERANK_QUERY,
    documents,
    top_n: 3,
    return_documents: true,
  });
  assert.equal(body.results.length, 3);
  for (const result of body.results) {
    assert.deepEqual(result.document, { text: documents[result.index] });
  }
});

Deno.test("/v2/rerank one-turn with two documents and top_n 1 answers one result, not none", async () => {
  const body = await rerankV2({
    model: "sift-one-turn",
    query: "q",
    documents: ["a", "b"],
    top_n: 1,
  });
  assert.equal(body.results.length, 1);
  assert.equal(body.discarded.length, 2, "both fell below REBEL's threshold, and it says so");
  assert.match(body.discarded[0]!.reason, /below the threshold/);
});

Deno.test('/v2/rerank discarded: "omit" keeps REBEL\'s behaviour of leaving them out', async () => {
  const body = await rerankV2({
    model: "sift-one-turn",
    query: RERANK_QUERY,
    documents: TEN,
    discarded: "omit",
  });
  const dropped = new Set(body.discarded.map((entry) => entry.index));
  assert.ok(dropped.size > 0);
  assert.equal(body.results.length, TEN.length - dropped.size);
  assert.ok(!body.results.some((result) => dropped.has(result.index)));
});

Deno.test("/v2/rerank ranks object documents on rank_fields and cuts them at max_tokens_per_doc", async () => {
  const documents = [
    { title: "Cats", body: "BM25 ranks documents with term frequency saturation." },
    { title: "BM25 ranking", body: "Cats are small mammals." },
  ];
  const byTitle = await rerankV2({
    model: "sift-relevance",
    query: "BM25 ranking",
    documents,
    rank_fields: ["title"],
    return_documents: true,
  });
  assert.equal(byTitle.results[0]?.index, 1);
  assert.deepEqual(byTitle.results[0]?.document, documents[1]);
  // Cut to two tokens, the first document no longer mentions BM25 ranking at all.
  const cut = await rerankV2({
    model: "sift-relevance",
    query: "BM25 ranking",
    documents: ["The moon. BM25 ranking is lexical.", "BM25 ranking weighs term frequency."],
    max_tokens_per_doc: 2,
  });
  assert.equal(cut.results[0]?.index, 1);
  const { post } = testApp();
  const missing = await post("/v2/rerank", {
    model: "sift-relevance",
    query: "q",
    documents: [{ title: "a" }],
    rank_fields: ["body"],
  });
  assert.equal(missing.status, 400);
  // Cohere's error shape, which its clients read.
  assert.match(
    (await missing.json() as { message: string }).message,
    /^rank_fields: documents\.0 has no field "body"/,
  );
});

Deno.test("/v2/rerank refuses a field Cohere does not document, naming it; priority is accepted", async () => {
  const { post } = testApp();
  const base = { model: "sift-relevance", query: "q", documents: ["a"] };
  const misspelled = await post("/v2/rerank", { ...base, topn: 1 });
  assert.equal(misspelled.status, 400);
  assert.equal(
    (await misspelled.json() as { message: string }).message,
    'unknown field "topn"; did you mean "top_n"?',
  );
  assert.equal((await post("/v2/rerank", { ...base, priority: 1 })).status, 200);
  assert.equal((await post("/v2/rerank", { ...base, return_documents: false })).status, 200);
});

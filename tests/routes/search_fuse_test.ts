import assert from "node:assert/strict";
import { CORPUS } from "./corpus.ts";
import { type ErrorBody, testApp } from "./helpers.ts";

type Hit = {
  id: string;
  doc_id: string;
  text: string;
  score: number;
  metadata: Record<string, unknown>;
};
type FusedHit = Hit & { rrf_score: number; ranks: (number | null)[] };
type FusionBody = {
  queries: { text: string; origin: "original" | "variation" }[];
  results: FusedHit[];
  degraded: boolean;
};
type PureFusionBody = { results: { id: string; rrf_score: number; ranks: (number | null)[] }[] };

async function appWithCorpus() {
  const setup = testApp();
  const response = await setup.post("/v1/documents", { documents: CORPUS });
  assert.equal(response.status, 201);
  return setup;
}

function near(actual: number, expected: number, label = "") {
  assert.ok(Math.abs(actual - expected) <= 1e-12, `${label} expected ${expected}, got ${actual}`);
}

Deno.test("POST /v1/search finds the right document in every mode", async () => {
  const { post } = await appWithCorpus();
  for (const mode of ["dense", "sparse", "hybrid"]) {
    const response = await post("/v1/search", { query: "volcano lava eruptions", mode, top_k: 2 });
    assert.equal(response.status, 200, mode);
    const { results }: { results: Hit[] } = await response.json();
    assert.ok(results.length >= 1 && results.length <= 2, mode);
    assert.equal(results[0]!.doc_id, "volcano", mode);
    assert.equal(results[0]!.id, "volcano#0");
    assert.equal(results[0]!.text, CORPUS[2]!.text, "hits carry the chunk text as ingested");
    assert.equal(results[0]!.metadata.title, "Volcanoes");
  }
});

Deno.test("POST /v1/search defaults to hybrid, whose scores are RRF values", async () => {
  const { post } = await appWithCorpus();
  const { results }: { results: Hit[] } = await (await post("/v1/search", {
    query: "reciprocal rank fusion",
  })).json();
  assert.equal(results[0]!.doc_id, "rrf");
  // Found first by both dense and sparse: 2 / (60 + 1).
  near(results[0]!.score, 2 / 61);
});

Deno.test("POST /v1/search applies the metadata filter", async () => {
  const { post } = await appWithCorpus();
  const filtered = await post("/v1/search", {
    query: "document ranking scores",
    mode: "dense",
    filter: { year: { lt: 2000 } },
  });
  const { results }: { results: Hit[] } = await filtered.json();
  assert.deepEqual(results.map((hit) => hit.doc_id), ["bm25"]);
  const byTopic = await post("/v1/search", { query: "scores", filter: { topic: "geology" } });
  for (const hit of (await byTopic.json() as { results: Hit[] }).results) {
    assert.equal(hit.doc_id, "volcano");
  }
});

Deno.test("POST /v1/search answers 400 naming `mode` for an unknown mode", async () => {
  const { post } = testApp();
  const response = await post("/v1/search", { query: "x", mode: "fuzzy" });
  assert.equal(response.status, 400);
  assert.match((await response.json() as ErrorBody).error.message, /^mode: /);
});

Deno.test("POST /v1/search answers 400 naming the field for a bad query or top_k", async () => {
  const { post } = testApp();
  const empty = await post("/v1/search", { query: "  " });
  assert.match((await empty.json() as ErrorBody).error.message, /^query: /);
  const big = await post("/v1/search", { query: "x", top_k: 1000 });
  assert.equal(big.status, 400);
  assert.match((await big.json() as ErrorBody).error.message, /^top_k: /);
});

Deno.test("POST /v1/fuse over given rankings returns exact RRF scores (k = 60)", async () => {
  const { post } = testApp();
  const response = await post("/v1/fuse", { rankings: [["a", "b", "c"], ["b", "a"], ["c"]] });
  assert.equal(response.status, 200);
  const { results }: PureFusionBody = await response.json();
  // a and b tie exactly; both have best rank 1, and a appeared first.
  assert.deepEqual(results.map((item) => item.id), ["a", "b", "c"]);
  near(results[0]!.rrf_score, 1 / 61 + 1 / 62, "a");
  near(results[1]!.rrf_score, 1 / 62 + 1 / 61, "b");
  near(results[2]!.rrf_score, 1 / 63 + 1 / 61, "c");
  assert.deepEqual(results.map((item) => item.ranks), [[1, 2, null], [2, 1, null], [3, null, 1]]);
});

Deno.test("POST /v1/fuse applies weights and a custom rrf_k", async () => {
  const { post } = testApp();
  const response = await post("/v1/fuse", {
    rankings: [["a", "b"], ["b", "a"]],
    weights: [2, 0.5],
    rrf_k: 10,
  });
  const { results }: PureFusionBody = await response.json();
  assert.deepEqual(results.map((item) => item.id), ["a", "b"]);
  near(results[0]!.rrf_score, 2 / 11 + 0.5 / 12, "a");
  near(results[1]!.rrf_score, 2 / 12 + 0.5 / 11, "b");
});

Deno.test("POST /v1/fuse answers 400 naming `weights` when their count differs", async () => {
  const { post } = testApp();
  const response = await post("/v1/fuse", { rankings: [["a"], ["b"]], weights: [1] });
  assert.equal(response.status, 400);
  assert.match((await response.json() as ErrorBody).error.message, /^weights: /);
});

Deno.test("POST /v1/fuse answers 400 naming `rankings` for bad rankings", async () => {
  const { post } = testApp();
  for (const rankings of [[], "a,b", [["a", 2]], [null]]) {
    const response = await post("/v1/fuse", { rankings });
    assert.equal(response.status, 400, JSON.stringify(rankings));
    assert.match((await response.json() as ErrorBody).error.message, /^rankings(\.\d+)*: /);
  }
});

Deno.test("POST /v1/fuse with a query runs RAG-Fusion: the original plus 4 variations", async () => {
  const { post } = await appWithCorpus();
  const response = await post("/v1/fuse", {
    query: "How does reciprocal rank fusion merge rankings?",
    top_k: 3,
  });
  assert.equal(response.status, 200);
  const body: FusionBody = await response.json();
  assert.equal(body.degraded, false);
  assert.equal(body.queries.length, 5);
  assert.deepEqual(body.queries[0], {
    text: "How does reciprocal rank fusion merge rankings?",
    origin: "original",
  });
  for (const query of body.queries.slice(1)) assert.equal(query.origin, "variation");
  assert.equal(new Set(body.queries.map((query) => query.text.toLowerCase())).size, 5);

  assert.ok(body.results.length > 0 && body.results.length <= 3);
  assert.equal(body.results[0]!.doc_id, "rrf");
  for (const hit of body.results) {
    assert.equal(hit.ranks.length, body.queries.length, "one rank per query");
    const expected = hit.ranks.reduce<number>((sum, rank) => sum + (rank ? 1 / (60 + rank) : 0), 0);
    near(hit.rrf_score, expected, hit.id);
    assert.equal(hit.score, hit.rrf_score);
  }
  const scores = body.results.map((hit) => hit.rrf_score);
  assert.deepEqual(scores, [...scores].sort((x, y) => y - x));
});

Deno.test("POST /v1/fuse honours `variations` and answers 400 past the limit", async () => {
  const { post } = await appWithCorpus();
  const two: FusionBody = await (await post("/v1/fuse", {
    query: "What is Okapi BM25?",
    variations: 2,
  })).json();
  assert.equal(two.queries.length, 3);
  for (const hit of two.results) assert.equal(hit.ranks.length, 3);
  const none: FusionBody = await (await post("/v1/fuse", {
    query: "What is Okapi BM25?",
    variations: 0,
  })).json();
  assert.deepEqual(none.queries, [{ text: "What is Okapi BM25?", origin: "original" }]);
  const tooMany = await post("/v1/fuse", { query: "x", variations: 11 });
  assert.equal(tooMany.status, 400);
  assert.match((await tooMany.json() as ErrorBody).error.message, /^variations: /);
});

Deno.test("POST /v1/search answers 413 for a body over the limit even without content-length", async () => {
  const { app, env } = testApp();
  const response = await app.request("/v1/search", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query: "x", padding: "y".repeat(1024 * 1024) }),
  }, env);
  assert.equal(response.status, 413);
  assert.equal((await response.json() as ErrorBody).error.type, "payload_too_large");
});

Deno.test({
  name: "POST /v1/search after EMBEDDING_DIMENSIONS changes uses query vectors of the new size",
  async fn() {
    const { app } = testApp();
    const request = (env: Record<string, string>, path: string, body: unknown) =>
      app.request(path, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      }, env);
    const before = { DEMO_CORPUS: "false" };
    assert.equal((await request(before, "/v1/search", { query: "volcano lava" })).status, 200);
    const after = { DEMO_CORPUS: "false", EMBEDDING_DIMENSIONS: "64" };
    assert.equal((await request(after, "/v1/documents", { documents: CORPUS })).status, 201);
    const response = await request(after, "/v1/search", { query: "volcano lava" });
    assert.equal(response.status, 200, await response.clone().text());
    const { results }: { results: Hit[] } = await response.json();
    assert.equal(results[0]!.doc_id, "volcano");
  },
});

Deno.test("POST /v1/fuse puts x10 above x0 when they tie exactly (best rank, then first appearance)", async () => {
  const { post } = testApp();
  const rankings = [
    ["x10", "x3", "x0"],
    ["x10", "x0", "x3"],
    ["x0", "x10", "x3"],
    ["x0", "x3", "x10"],
  ];
  for (const body of [{ rankings }, { rankings, weights: [1, 1, 1, 1], rrf_k: 60 }]) {
    const response = await post("/v1/fuse", body);
    assert.equal(response.status, 200);
    const { results }: PureFusionBody = await response.json();
    assert.deepEqual(results.map((item) => item.id), ["x10", "x0", "x3"]);
    assert.equal(results[0]!.rrf_score, results[1]!.rrf_score);
  }
});

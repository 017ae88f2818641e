import assert from "node:assert/strict";
import { createSiftApp } from "../../app.ts";
import { redisServerOrSkip, startRedisRestStack } from "../helpers/redis_rest_server.ts";
import { startVectorRestServer } from "../helpers/vector_rest_server.ts";
import { readEvents } from "../../scripts/client.ts";

const redis = redisServerOrSkip("sift on Upstash adapters");

Deno.test({
  name: "sift configured with UPSTASH_* ingests, searches and answers through both Upstash SDKs",
  ignore: redis.ignore,
  async fn() {
    await using redisStack = await startRedisRestStack({ redisServerPath: redis.redisServerPath });
    await using vector = startVectorRestServer();
    const env = {
      DEMO_CORPUS: "false",
      UPSTASH_REDIS_REST_URL: redisStack.url,
      UPSTASH_REDIS_REST_TOKEN: redisStack.token,
      UPSTASH_VECTOR_REST_URL: vector.url,
      UPSTASH_VECTOR_REST_TOKEN: vector.token,
    };
    const app = createSiftApp();
    const post = (path: string, body: unknown) =>
      app.request(path, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      }, env);

    const health = await (await app.request("/healthz", {}, env)).json();
    assert.deepEqual(health.providers, {
      llm: "offline",
      embeddings: "offline",
      index: "upstash-vector",
      cache: "upstash-redis",
    });

    const ingest = await post("/v1/documents", {
      documents: [
        {
          id: "rrf",
          title: "Fusion",
          text: "Reciprocal rank fusion adds 1/(k + rank) over rankings, k = 60.",
        },
        {
          id: "bm25",
          title: "Okapi",
          text: "BM25 saturates term frequency with k1 and normalizes length with b.",
        },
      ],
    });
    assert.equal(ingest.status, 201, await ingest.clone().text());
    assert.ok(vector.requests.some((request) => request.path.startsWith("/upsert")));

    for (const mode of ["dense", "sparse", "hybrid"]) {
      const response = await post("/v1/search", {
        query: "reciprocal rank fusion",
        mode,
        top_k: 2,
      });
      const { results } = await response.json();
      assert.equal(results[0].doc_id, "rrf", `${mode}: ${JSON.stringify(results)}`);
    }

    // The query embedding went to Redis on the first dense search and came back on the next.
    const sent = JSON.stringify(redisStack.restServer.requests.map((request) => request.body));
    assert.match(sent, /"set","sift:embedding:/i);
    assert.match(sent, /"get","sift:embedding:/i);
    const query = await post("/v1/query", {
      query: "How does reciprocal rank fusion score a document?",
    });
    const names: string[] = [];
    let answer = "";
    for await (const event of readEvents(query.body!)) {
      names.push(event.event);
      if (event.event === "answer-end") answer = (event.data as { answer: string }).answer;
    }
    assert.equal(names[0], "retrieval-end");
    assert.deepEqual(names.slice(-2), ["usage", "done"]);
    assert.match(answer, /\[1\]/);

    const removed = await app.request("/v1/documents/rrf", { method: "DELETE" }, env);
    assert.equal((await removed.json()).deleted_chunks, 1);
  },
});

Deno.test({
  name: "on the Upstash adapters, tenants keep their namespaces and cached results apart",
  ignore: redis.ignore,
  async fn() {
    await using redisStack = await startRedisRestStack({ redisServerPath: redis.redisServerPath });
    await using vector = startVectorRestServer();
    const env = {
      DEMO_CORPUS: "false",
      API_KEYS: "ka:acme,kb:globex,kz",
      UPSTASH_REDIS_REST_URL: redisStack.url,
      UPSTASH_REDIS_REST_TOKEN: redisStack.token,
      UPSTASH_VECTOR_REST_URL: vector.url,
      UPSTASH_VECTOR_REST_TOKEN: vector.token,
    };
    const app = createSiftApp();
    const post = async (key: string, path: string, body: unknown) => {
      const response = await app.request(path, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
        body: JSON.stringify(body),
      }, env);
      assert.ok(response.status < 300, await response.clone().text());
      return await response.json();
    };
    for (const [key, text] of [["ka", "acme's ledger"], ["kb", "globex's ledger"]]) {
      await post(key!, "/v1/documents", { documents: [{ id: "ledger", text }] });
    }
    // Stored under `<tenant>:<namespace>`, a name no caller can give.
    assert.ok(vector.requests.some((request) => request.path === "/upsert/acme:default"));
    const texts = async (key: string) =>
      ((await post(key, "/v1/search", { query: "ledger", mode: "sparse" })) as {
        results: { text: string }[];
      }).results.map((hit) => hit.text);
    assert.deepEqual(await texts("ka"), ["acme's ledger"]);
    assert.deepEqual(await texts("kb"), ["globex's ledger"]);
    assert.deepEqual(await texts("kz"), []);
    const cached = async (key: string) =>
      ((await post(key, "/v1/rubrics", { query: "ledgers?" })) as { cached: boolean }).cached;
    assert.equal(await cached("ka"), false);
    assert.equal(await cached("ka"), true);
    assert.equal(await cached("kb"), false);
  },
});

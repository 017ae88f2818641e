/**
 * Issue #11's validation gaps, each refused with a 400 naming the field
 * (chat models: the 404 OpenAI clients expect, naming `model`).
 */
import assert from "node:assert/strict";
import { errorMessageOf, testApp } from "./helpers.ts";
import { readConfig } from "../../shared/config.ts";
import { ConfigError } from "../../shared/errors.ts";

async function assertNames(response: Response, field: string, status = 400) {
  const body = await response.json();
  assert.equal(response.status, status, JSON.stringify(body));
  const message = errorMessageOf(body);
  assert.ok(message.startsWith(`${field}:`), `${field}: ${message}`);
}

const TOMORROW_PLUS = new Date(Date.now() + 3 * 24 * 3600 * 1000).toISOString().slice(0, 10);

Deno.test("top_k is never coerced: a string, a boolean or a list is a 400 naming it", async () => {
  const { post } = testApp();
  for (const topK of ["5", true, [5], null]) {
    await assertNames(await post("/v1/search", { query: "lava", top_k: topK }), "top_k");
    await assertNames(
      await post("/v1/query", { query: "lava", pipeline: { retrieval: { top_k: topK } } }),
      "pipeline.retrieval.top_k",
    );
  }
});

Deno.test("filters on __proto__, constructor or prototype are refused by name", async () => {
  const { post } = testApp();
  for (const field of ["__proto__", "constructor", "prototype"]) {
    // Raw JSON: a JS object literal would set the prototype instead of a "__proto__" key.
    const filter = JSON.parse(`{"${field}": {"ne": "x"}}`);
    await assertNames(await post("/v1/search", { query: "lava", filter }), `filter.${field}`);
  }
});

Deno.test("rerank weights keyed __proto__, constructor or prototype are refused by name", async () => {
  const { post } = testApp();
  for (const field of ["__proto__", "constructor", "prototype"]) {
    const weights = JSON.parse(`{"${field}": 1}`);
    const documents = ["Lava flows downhill.", "Basalt cools fast."];
    await assertNames(
      await post("/v1/rerank", { query: "lava", documents, weights }),
      `weights.${field}`,
    );
    await assertNames(
      await post("/v1/query", {
        query: "lava",
        pipeline: { rerank: { strategy: "one-turn", weights } },
      }),
      `pipeline.rerank.weights.${field}`,
    );
  }
});

Deno.test("model names are own keys: constructor or toString is refused, not matched", async () => {
  const { post } = testApp();
  for (const model of ["constructor", "toString", "__proto__", "hasOwnProperty"]) {
    await assertNames(
      await post("/v2/rerank", { model, query: "lava", documents: ["Lava flows."] }),
      "model",
    );
    await assertNames(
      await post("/v1/chat/completions", { model, messages: [{ role: "user", content: "hi" }] }),
      "model",
      404,
    );
  }
});

Deno.test("ids '.' and '..' are refused at ingest, naming the field", async () => {
  const { post } = testApp();
  for (const id of [".", ".."]) {
    await assertNames(
      await post("/v1/documents", { documents: [{ id, text: "Lava flows." }] }),
      "documents.0.id",
    );
  }
  const kept = await post("/v1/documents", { documents: [{ id: "v1.2..3", text: "Lava flows." }] });
  assert.equal(kept.status, 201, "dots inside an id are fine");
});

Deno.test("dimensions above the known maximum are a 400 naming dimensions, not a 502", async () => {
  const { post } = testApp();
  await assertNames(
    await post("/v1/embeddings", { input: "lava", dimensions: 9000 }),
    "dimensions",
  );
  await assertNames(
    await post("/v1/embeddings", { input: "lava", dimensions: "64" }),
    "dimensions",
  );
});

Deno.test("API_KEYS with no usable key stops start-up, naming API_KEYS", () => {
  assert.throws(
    () => readConfig({ API_KEYS: "," }),
    (error: Error) => error instanceof ConfigError && error.message.includes("API_KEYS:"),
  );
});

Deno.test("document dates more than a day in the future are refused at ingest, naming the field", async () => {
  const { post } = testApp();
  await assertNames(
    await post("/v1/documents", { documents: [{ text: "Lava.", published: "2099-01-01" }] }),
    "documents.0.published",
  );
  await assertNames(
    await post("/v1/documents", {
      documents: [{ text: "Lava.", published: "2019" }, { text: "Ash.", published: TOMORROW_PLUS }],
    }),
    "documents.1.published",
  );
  await assertNames(
    await post("/v1/documents", {
      documents: [{ text: "Lava.", metadata: { published: "2099" } }],
    }),
    "documents.0.metadata.published",
  );
  await assertNames(
    await post("/v1/documents", { documents: [{ text: "Lava.", metadata: { date: 2099 } }] }),
    "documents.0.metadata.date",
  );
  const today = new Date().toISOString().slice(0, 10);
  const accepted = await post("/v1/documents", {
    documents: [{ text: "Lava flows downhill.", published: today, metadata: { date: "May 2019" } }],
  });
  assert.equal(accepted.status, 201);
});

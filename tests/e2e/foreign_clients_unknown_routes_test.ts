/**
 * What an OpenAI or Cohere client meets when it asks sift for something sift
 * has not got, or looks for what it has: openai-node and cohere-ai, unmodified
 * but for the base URL, over real HTTP. An unknown route under `/v1/` answers
 * in OpenAI's error shape and under `/v2/` in Cohere's, so each client raises
 * its own 404 error with the message readable; `/v1/models` names the
 * embedding model `/v1/embeddings` answers with.
 */
import assert from "node:assert/strict";
import OpenAI from "openai";
import { Cohere, CohereClientV2 } from "cohere-ai";
import { createSiftApp } from "../../app.ts";

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

Deno.test("openai-node gets a NotFoundError in OpenAI's shape for a /v1 route sift lacks", async () => {
  await using sift = serveSift();
  const client = new OpenAI({ baseURL: `${sift.url}/v1`, apiKey: "x", maxRetries: 0 });
  await assert.rejects(
    () => client.batches.list(),
    (error) => {
      assert.ok(error instanceof OpenAI.NotFoundError, String(error));
      assert.equal(error.status, 404);
      assert.equal(error.type, "invalid_request_error");
      assert.match(error.message, /No route for GET \/v1\/batches/);
      return true;
    },
  );
  // A route sift has keeps its own shape, and a wrong method is still a 405.
  const wrongMethod = await fetch(`${sift.url}/v1/search`, { method: "GET" });
  assert.equal(wrongMethod.status, 405);
  const { error } = await wrongMethod.json() as { error: Record<string, unknown> };
  assert.deepEqual(Object.keys(error).sort(), ["message", "type"]);
});

Deno.test("cohere-ai's v2 client gets a NotFoundError in Cohere's shape for a /v2 route sift lacks", async () => {
  await using sift = serveSift();
  const client = new CohereClientV2({ environment: sift.url, token: "unused", maxRetries: 0 });
  await assert.rejects(
    () => client.embed({ model: "embed-v4.0", texts: ["a"], inputType: "search_document" }),
    (error) => {
      assert.ok(error instanceof Cohere.NotFoundError, String(error));
      const body = error.body as { message: string };
      assert.match(body.message, /No route for POST \/v2\/embed/);
      return true;
    },
  );
});

Deno.test("openai-node lists the embedding model next to the presets and embeds with it", async () => {
  await using sift = serveSift();
  const client = new OpenAI({ baseURL: `${sift.url}/v1`, apiKey: "x", maxRetries: 0 });
  const ids: string[] = [];
  for await (const model of client.models.list()) ids.push(model.id);
  assert.ok(ids.includes("sift-two-turn"), ids.join(", "));
  const embedded = await client.embeddings.create({ model: "any", input: "a passage" });
  assert.ok(ids.includes(embedded.model), `${embedded.model} in ${ids.join(", ")}`);
  const model = await client.models.retrieve(embedded.model);
  assert.equal(model.id, embedded.model);
  assert.equal(model.owned_by, "sift");
});

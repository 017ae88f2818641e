import assert from "node:assert/strict";
import OpenAI from "openai";
import { HASHED_EMBEDDING_DIMENSIONS, hashedEmbedding } from "../../shared/embeddings/hashed.ts";
import { type ErrorBody, testApp } from "./helpers.ts";

type EmbeddingsBody<T> = {
  object: "list";
  data: { object: "embedding"; index: number; embedding: T }[];
  model: string;
  usage: { prompt_tokens: number; total_tokens: number };
};

function decodeFloat32Base64(encoded: string): number[] {
  const bytes = Uint8Array.from(atob(encoded), (char) => char.charCodeAt(0));
  const view = new DataView(bytes.buffer);
  return Array.from({ length: bytes.length / 4 }, (_, i) => view.getFloat32(i * 4, true));
}

const INPUTS = ["reciprocal rank fusion", "volcanoes erupt lava"];

Deno.test("POST /v1/embeddings returns one float vector per input, OpenAI-shaped", async () => {
  const { post } = testApp();
  const response = await post("/v1/embeddings", { model: "anything", input: INPUTS });
  assert.equal(response.status, 200);
  const body: EmbeddingsBody<number[]> = await response.json();
  assert.equal(body.object, "list");
  assert.deepEqual(body.data.map((item) => [item.object, item.index]), [
    ["embedding", 0],
    ["embedding", 1],
  ]);
  for (const [i, item] of body.data.entries()) {
    assert.equal(item.embedding.length, HASHED_EMBEDDING_DIMENSIONS);
    const expected = hashedEmbedding(INPUTS[i]!).map(Math.fround);
    item.embedding.forEach((value, j) => assert.ok(Math.abs(value - expected[j]!) < 1e-7));
  }
  assert.ok(body.usage.prompt_tokens > 0);
  assert.equal(body.usage.total_tokens, body.usage.prompt_tokens);
});

Deno.test("POST /v1/embeddings float and base64 encodings decode to the same vector", async () => {
  const { post } = testApp();
  const floats: EmbeddingsBody<number[]> = await (await post("/v1/embeddings", {
    input: INPUTS,
    encoding_format: "float",
  })).json();
  const encoded: EmbeddingsBody<string> = await (await post("/v1/embeddings", {
    input: INPUTS,
    encoding_format: "base64",
  })).json();
  assert.equal(typeof encoded.data[0]!.embedding, "string");
  for (const [i, item] of encoded.data.entries()) {
    assert.deepEqual(
      decodeFloat32Base64(item.embedding),
      floats.data[i]!.embedding.map(Math.fround),
    );
  }
});

Deno.test("POST /v1/embeddings takes a single string", async () => {
  const { post } = testApp();
  const body: EmbeddingsBody<number[]> = await (await post("/v1/embeddings", {
    input: "just one",
  })).json();
  assert.equal(body.data.length, 1);
});

Deno.test("POST /v1/embeddings answers 400 naming `input` for token arrays and empty input", async () => {
  const { post } = testApp();
  for (const input of [[1, 2, 3], [[1, 2], [3]], "", [], [""]]) {
    const response = await post("/v1/embeddings", { model: "x", input });
    assert.equal(response.status, 400, JSON.stringify(input));
    assert.match((await response.json() as ErrorBody).error.message, /^input(\.\d+)?: /);
  }
});

Deno.test({
  name: "POST /v1/embeddings honours `dimensions` or refuses it",
  async fn() {
    const { post } = testApp();
    const response = await post("/v1/embeddings", { input: "rank fusion", dimensions: 64 });
    if (response.status === 400) {
      assert.match((await response.json() as ErrorBody).error.message, /^dimensions: /);
      return;
    }
    const body: EmbeddingsBody<number[]> = await response.json();
    assert.equal(body.data[0]!.embedding.length, 64);
  },
});

Deno.test("the openai SDK gets vectors of the offline dimension from sift", async () => {
  const { app, env } = testApp();
  const requested: string[] = [];
  const client = new OpenAI({
    baseURL: "http://sift.test/v1",
    apiKey: "x",
    maxRetries: 0,
    fetch: async (input, init) => {
      const request = new Request(input, init);
      requested.push((await request.clone().json()).encoding_format);
      return app.fetch(request, env);
    },
  });
  const response = await client.embeddings.create({ model: "x", input: ["a", "b"] });
  assert.deepEqual(requested, ["base64"], "the SDK asks for base64 by default");
  assert.equal(response.data.length, 2);
  for (const item of response.data) {
    assert.ok(Array.isArray(item.embedding));
    assert.equal(item.embedding.length, HASHED_EMBEDDING_DIMENSIONS);
  }
  const [fusion] = (await client.embeddings.create({ model: "x", input: INPUTS })).data;
  const expected = hashedEmbedding(INPUTS[0]!).map(Math.fround);
  assert.deepEqual(fusion!.embedding, expected);
});

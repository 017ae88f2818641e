/**
 * Workers AI as sift's LLM and embeddings provider (`LLM_PROVIDER=workers-ai`),
 * against FAKES of the documented shapes: on Deno, Cloudflare's
 * OpenAI-compatible REST endpoint on loopback; on Workers, an object shaped
 * like the `AI` binding behind the OpenAI-protocol adapter.
 */
import assert from "node:assert/strict";
import { createSiftApp } from "../../app.ts";
import { Runtime } from "../../compose/runtime.ts";
import { readConfig } from "../../shared/config.ts";
import { ConfigError } from "../../shared/errors.ts";
import { workersAiBindingFetch } from "../../providers/workers-ai/openai-fetch.ts";
import { readEvents, testApp, withoutErrorLogs } from "./helpers.ts";
import {
  FAKE_ACCOUNT_ID,
  FAKE_API_TOKEN,
  fakeAiBinding,
  startWorkersAiRestFake,
} from "../helpers/workers_ai_fake.ts";

const DOCUMENTS = [{ id: "a", text: "Workers AI runs models on Cloudflare's network." }];

Deno.test("LLM_PROVIDER=workers-ai on Deno: the answer streams from Cloudflare's REST API with its token, usage and price", async () => {
  const fake = startWorkersAiRestFake();
  try {
    const env = {
      DEMO_CORPUS: "false",
      LLM_PROVIDER: "workers-ai",
      CLOUDFLARE_ACCOUNT_ID: FAKE_ACCOUNT_ID,
      CLOUDFLARE_API_TOKEN: FAKE_API_TOKEN,
      CLOUDFLARE_API_BASE_URL: fake.apiBaseUrl,
    };
    const send = testApp(env).post;
    const response = await send("/v1/answer", {
      query: "Where does Workers AI run?",
      documents: DOCUMENTS,
      stream: true,
    });
    assert.equal(response.status, 200);
    const events = await readEvents(response);
    const text = events.filter((event) => event.event === "answer-delta")
      .map((event) => (event.data as { text: string }).text).join("");
    assert.match(text, /A fake reply\./);
    const chat = fake.requests.find((request) => request.path.endsWith("/ai/v1/chat/completions"))!;
    assert.equal(chat.path, `/client/v4/accounts/${FAKE_ACCOUNT_ID}/ai/v1/chat/completions`);
    assert.equal(chat.headers.authorization, `Bearer ${FAKE_API_TOKEN}`);
    const body = chat.body as { model: string; stream: boolean; messages: unknown[] };
    assert.equal(body.model, "@cf/meta/llama-3.1-8b-instruct-fp8-fast");
    assert.equal(body.stream, true);

    // Embeddings: bge-base's 768 dimensions, through the same endpoint family.
    const embedded = await send("/v1/embeddings", { input: ["one", "two"] });
    assert.equal(embedded.status, 200);
    const vectors = (await embedded.json() as { data: { embedding: number[] }[] }).data;
    assert.deepEqual(vectors.map((item) => item.embedding.length), [768, 768]);
    const embeddingCall = fake.requests.find((request) => request.path.endsWith("/embeddings"))!;
    assert.equal((embeddingCall.body as { model: string }).model, "@cf/baai/bge-base-en-v1.5");
    assert.equal("dimensions" in (embeddingCall.body as object), false);
    assert.equal((embeddingCall.body as { encoding_format: string }).encoding_format, "float");
  } finally {
    await fake.close();
  }
});

Deno.test("LLM_PROVIDER=workers-ai: the query's usage prices Workers AI tokens from the neuron table", async () => {
  const fake = startWorkersAiRestFake();
  try {
    const send = testApp({
      DEMO_CORPUS: "true",
      LLM_PROVIDER: "workers-ai",
      CLOUDFLARE_ACCOUNT_ID: FAKE_ACCOUNT_ID,
      CLOUDFLARE_API_TOKEN: FAKE_API_TOKEN,
      CLOUDFLARE_API_BASE_URL: fake.apiBaseUrl,
    }).post;
    const events = await readEvents(await send("/v1/query", { query: "What is sift?" }));
    const usage = events.find((event) => event.event === "usage")!.data as {
      steps: { name: string; tokens_in: number; tokens_out: number; cost_usd: number }[];
      cost_usd: number;
    };
    const answer = usage.steps.find((step) => step.name === "answer")!;
    assert.ok(answer.tokens_in > 0 && answer.tokens_out === 3, JSON.stringify(answer));
    const expected = (answer.tokens_in * 0.0453 + answer.tokens_out * 0.3835) / 1e6;
    assert.ok(Math.abs(answer.cost_usd - expected) < 1e-8, `${answer.cost_usd} vs ${expected}`);
    assert.ok(usage.cost_usd >= answer.cost_usd);

    // The question's embedding: the tokens the endpoint reported, priced at bge-base's price.
    const retrieval = usage.steps.find((step) => step.name === "retrieval")!;
    assert.deepEqual(
      [retrieval.tokens_in, retrieval.tokens_out],
      [4, 0],
      JSON.stringify(retrieval),
    );
    // costOf rounds to 1e-8 USD.
    assert.ok(Math.abs(retrieval.cost_usd - (4 * 0.0666) / 1e6) < 1e-8, `${retrieval.cost_usd}`);
    // Asked again, the embedding comes from the cache: no call, no tokens.
    const again = await readEvents(await send("/v1/query", { query: "What is sift?" }));
    const cached = (again.find((event) => event.event === "usage")!.data as typeof usage).steps
      .find((step) => step.name === "retrieval")!;
    assert.equal(cached.tokens_in, 0);
  } finally {
    await fake.close();
  }
});

Deno.test("Workers AI's error replies become sift's 502 on the answer route", async () => {
  const fake = startWorkersAiRestFake({ fail: { status: 500, code: 3040 } });
  try {
    const send = testApp({
      DEMO_CORPUS: "false",
      LLM_PROVIDER: "workers-ai",
      LLM_TIMEOUT_MS: "5000",
      CLOUDFLARE_ACCOUNT_ID: FAKE_ACCOUNT_ID,
      CLOUDFLARE_API_TOKEN: FAKE_API_TOKEN,
      CLOUDFLARE_API_BASE_URL: fake.apiBaseUrl,
    }).post;
    const response = await withoutErrorLogs(() =>
      send("/v1/answer", { query: "q", documents: DOCUMENTS })
    );
    assert.equal(response.status, 502);
    const text = await response.text();
    assert.match(text, /upstream_error/);
    assert.doesNotMatch(text, /fake failure/);
  } finally {
    await fake.close();
  }
});

Deno.test("on Workers the AI binding answers, streams and embeds through the OpenAI-protocol adapter", async () => {
  const binding = fakeAiBinding();
  const app = createSiftApp({ runtime: new Runtime({ llmFetch: workersAiBindingFetch }) });
  const send = testApp({ DEMO_CORPUS: "false", LLM_PROVIDER: "workers-ai", AI: binding }, app).post;

  const whole = await send("/v1/answer", { query: "Where?", documents: DOCUMENTS });
  assert.equal(whole.status, 200);
  assert.match((await whole.json() as { answer: string }).answer, /A fake reply\./);

  const streamed = await readEvents(
    await send("/v1/answer", { query: "Where?", documents: DOCUMENTS, stream: true }),
  );
  const text = streamed.filter((event) => event.event === "answer-delta")
    .map((event) => (event.data as { text: string }).text).join("");
  assert.equal(text.trim(), "A fake reply.");

  const embedded = await send("/v1/embeddings", { input: "one" });
  assert.deepEqual(
    (await embedded.json() as { data: { embedding: number[] }[] }).data[0]!.embedding.length,
    768,
  );

  const models = binding.calls.map((call) => call.model);
  assert.ok(models.includes("@cf/meta/llama-3.1-8b-instruct-fp8-fast"));
  assert.ok(models.includes("@cf/baai/bge-base-en-v1.5"));
  const streamCall = binding.calls.find((call) => call.inputs.stream === true)!;
  assert.ok(Array.isArray(streamCall.inputs.messages), "documented chat inputs: messages");
  const embedCall = binding.calls.find((call) => call.model === "@cf/baai/bge-base-en-v1.5")!;
  assert.deepEqual(embedCall.inputs, { text: ["one"] });
});

Deno.test("workers-ai with neither binding nor credentials names what is missing", () => {
  const config = readConfig({ LLM_PROVIDER: "workers-ai" });
  assert.throws(() => new Runtime().deps(config), (error: unknown) => {
    assert.ok(error instanceof ConfigError);
    assert.match(error.message, /CLOUDFLARE_ACCOUNT_ID and CLOUDFLARE_API_TOKEN/);
    return true;
  });
  assert.throws(
    () => readConfig({ LLM_PROVIDER: "workers-ai", EMBEDDING_DIMENSIONS: "512" }),
    /EMBEDDING_DIMENSIONS: must be 768 for @cf\/baai\/bge-base-en-v1.5/,
  );
  assert.throws(
    () => readConfig({ CLOUDFLARE_ACCOUNT_ID: FAKE_ACCOUNT_ID }),
    /CLOUDFLARE_API_TOKEN: must be set together with CLOUDFLARE_ACCOUNT_ID/,
  );
  assert.equal(readConfig({ LLM_PROVIDER: "workers-ai" }).llm.structuredOutputs, false);
});

Deno.test("GET /v1/models lists the Workers AI models in use after the presets, when configured", async () => {
  const listed = async (env: Record<string, unknown>) => {
    const response = await createSiftApp().request("/v1/models", {}, env);
    const body = await response.json() as { data: { id: string; owned_by: string }[] };
    return body.data.filter((model) => model.owned_by === "cloudflare-workers-ai").map((m) => m.id);
  };
  assert.deepEqual(await listed({ DEMO_CORPUS: "false" }), []);
  assert.deepEqual(await listed({ DEMO_CORPUS: "false", AI: fakeAiBinding() }), [
    "@cf/baai/bge-reranker-base",
  ]);
  assert.deepEqual(
    await listed({
      DEMO_CORPUS: "false",
      LLM_PROVIDER: "workers-ai",
      CLOUDFLARE_ACCOUNT_ID: FAKE_ACCOUNT_ID,
      CLOUDFLARE_API_TOKEN: FAKE_API_TOKEN,
    }),
    [
      "@cf/meta/llama-3.1-8b-instruct-fp8-fast",
      "@cf/meta/llama-3.3-70b-instruct-fp8-fast",
      "@cf/baai/bge-base-en-v1.5",
      "@cf/baai/bge-reranker-base",
    ],
  );
});

/**
 * AI Gateway's knobs as `cf-aig-*` headers, checked against a loopback server
 * that records what arrives (the Workers AI REST FAKE, which also speaks the
 * OpenAI protocol: here it stands where a gateway's base URL would point).
 */
import assert from "node:assert/strict";
import { createSiftApp } from "../../app.ts";
import { Runtime } from "../../compose/runtime.ts";
import { workersAiBindingFetch } from "../../providers/workers-ai/openai-fetch.ts";
import {
  FAKE_ACCOUNT_ID,
  FAKE_API_TOKEN,
  fakeAiBinding,
  startWorkersAiRestFake,
} from "../helpers/workers_ai_fake.ts";

const DOCUMENTS = [{ id: "a", text: "AI Gateway caches and logs provider calls." }];
const GATEWAY = {
  AI_GATEWAY_TOKEN: "gateway-token",
  AI_GATEWAY_CACHE_TTL: "120",
  AI_GATEWAY_SKIP_CACHE: "true",
};

function send(app: ReturnType<typeof createSiftApp>, env: Record<string, unknown>) {
  return async (path: string, body: unknown) => {
    const response = await app.request(path, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }, env);
    await response.arrayBuffer();
    return response;
  };
}

Deno.test("an OpenAI-compatible provider behind AI Gateway gets the cf-aig-* knobs, the step in metadata", async () => {
  const recorder = startWorkersAiRestFake();
  try {
    const base = `${recorder.apiBaseUrl}/accounts/${FAKE_ACCOUNT_ID}/ai/v1`;
    const post = send(createSiftApp(), {
      DEMO_CORPUS: "false",
      LLM_BASE_URL: base,
      LLM_API_KEY: FAKE_API_TOKEN,
      EMBEDDING_MODEL: "@cf/baai/bge-small-en-v1.5",
      ...GATEWAY,
    });
    assert.equal((await post("/v1/answer", { query: "q", documents: DOCUMENTS })).status, 200);
    const chat = recorder.requests.find((request) => request.path.endsWith("/chat/completions"))!;
    assert.equal(chat.headers.authorization, `Bearer ${FAKE_API_TOKEN}`, "the provider's key");
    assert.equal(chat.headers["cf-aig-authorization"], "Bearer gateway-token");
    assert.equal(chat.headers["cf-aig-cache-ttl"], "120");
    assert.equal(chat.headers["cf-aig-skip-cache"], "true");
    assert.deepEqual(JSON.parse(chat.headers["cf-aig-metadata"]!), { step: "answer" });

    const embedded = await post("/v1/embeddings", {
      input: "x",
      model: "@cf/baai/bge-small-en-v1.5",
    });
    assert.equal(embedded.status, 200);
    const embeddings = recorder.requests.find((request) => request.path.endsWith("/embeddings"))!;
    assert.equal(embeddings.headers["cf-aig-cache-ttl"], "120");
  } finally {
    await recorder.close();
  }
});

Deno.test("Workers AI's reranker over REST behind AI Gateway names the rerank step", async () => {
  const recorder = startWorkersAiRestFake();
  try {
    const post = send(createSiftApp(), {
      DEMO_CORPUS: "false",
      CLOUDFLARE_ACCOUNT_ID: FAKE_ACCOUNT_ID,
      CLOUDFLARE_API_TOKEN: FAKE_API_TOKEN,
      CLOUDFLARE_API_BASE_URL: recorder.apiBaseUrl,
      ...GATEWAY,
    });
    const response = await post("/v2/rerank", {
      model: "@cf/baai/bge-reranker-base",
      query: "q",
      documents: ["a", "b"],
    });
    assert.equal(response.status, 200);
    const [run] = recorder.requests;
    assert.equal(run!.headers["cf-aig-authorization"], "Bearer gateway-token");
    assert.equal(run!.headers["cf-aig-skip-cache"], "true");
    assert.deepEqual(JSON.parse(run!.headers["cf-aig-metadata"]!), { step: "rerank" });
  } finally {
    await recorder.close();
  }
});

Deno.test("with no AI_GATEWAY_* variable no cf-aig-* header is sent", async () => {
  const recorder = startWorkersAiRestFake();
  try {
    const post = send(createSiftApp(), {
      DEMO_CORPUS: "false",
      LLM_BASE_URL: `${recorder.apiBaseUrl}/accounts/${FAKE_ACCOUNT_ID}/ai/v1`,
      LLM_API_KEY: FAKE_API_TOKEN,
    });
    assert.equal((await post("/v1/answer", { query: "q", documents: DOCUMENTS })).status, 200);
    assert.ok(recorder.requests.length > 0);
    for (const request of recorder.requests) {
      assert.deepEqual(
        Object.keys(request.headers).filter((name) => name.startsWith("cf-aig-")),
        [],
      );
    }
  } finally {
    await recorder.close();
  }
});

Deno.test("the AI binding gets AI_GATEWAY_ID and the knobs as its gateway option", async () => {
  const binding = fakeAiBinding();
  const app = createSiftApp({ runtime: new Runtime({ llmFetch: workersAiBindingFetch }) });
  const post = send(app, {
    DEMO_CORPUS: "false",
    LLM_PROVIDER: "workers-ai",
    AI: binding,
    AI_GATEWAY_ID: "sift-gateway",
    AI_GATEWAY_CACHE_TTL: "60",
  });
  assert.equal((await post("/v1/answer", { query: "q", documents: DOCUMENTS })).status, 200);
  assert.equal(
    (await post("/v2/rerank", {
      model: "@cf/baai/bge-reranker-base",
      query: "q",
      documents: ["a"],
    }))
      .status,
    200,
  );
  const byModel = (model: string) => binding.calls.find((call) => call.model === model)!;
  assert.deepEqual(byModel("@cf/meta/llama-3.1-8b-instruct-fp8-fast").options, {
    gateway: { id: "sift-gateway", cacheTtl: 60, metadata: { step: "answer" } },
  });
  assert.deepEqual(byModel("@cf/baai/bge-reranker-base").options, {
    gateway: { id: "sift-gateway", cacheTtl: 60, metadata: { step: "rerank" } },
  });
});

Deno.test("a tenant's calls name the tenant beside the step in cf-aig-metadata", async () => {
  const recorder = startWorkersAiRestFake();
  try {
    const app = createSiftApp();
    const env = {
      DEMO_CORPUS: "false",
      API_KEYS: "acme-key:acme",
      LLM_BASE_URL: `${recorder.apiBaseUrl}/accounts/${FAKE_ACCOUNT_ID}/ai/v1`,
      LLM_API_KEY: FAKE_API_TOKEN,
      CLOUDFLARE_ACCOUNT_ID: FAKE_ACCOUNT_ID,
      CLOUDFLARE_API_TOKEN: FAKE_API_TOKEN,
      CLOUDFLARE_API_BASE_URL: recorder.apiBaseUrl,
      AI_GATEWAY_CACHE_TTL: "30",
    };
    const post = async (path: string, body: unknown) => {
      const response = await app.request(path, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: "Bearer acme-key" },
        body: JSON.stringify(body),
      }, env);
      await response.arrayBuffer();
      return response.status;
    };
    assert.equal(await post("/v1/answer", { query: "q", documents: DOCUMENTS }), 200);
    assert.equal(
      await post("/v2/rerank", {
        model: "@cf/baai/bge-reranker-base",
        query: "q",
        documents: ["a"],
      }),
      200,
    );
    const metadata = (suffix: string) =>
      JSON.parse(
        recorder.requests.find((request) => request.path.endsWith(suffix))!
          .headers["cf-aig-metadata"]!,
      );
    assert.deepEqual(metadata("/chat/completions"), { tenant: "acme", step: "answer" });
    assert.deepEqual(metadata("/ai/run/@cf/baai/bge-reranker-base"), {
      step: "rerank",
      tenant: "acme",
    });
  } finally {
    await recorder.close();
  }
});

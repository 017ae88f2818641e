/**
 * Workers AI for real: these run only with `CLOUDFLARE_API_TOKEN` and
 * `CLOUDFLARE_ACCOUNT_ID` set (a token with Workers AI read/edit), and are
 * reported as ignored otherwise, so `deno task test` passes offline. They
 * reach api.cloudflare.com (or `CLOUDFLARE_API_BASE_URL`), a handful of
 * calls each. Run them alone:
 *
 *   CLOUDFLARE_ACCOUNT_ID=... CLOUDFLARE_API_TOKEN=... deno test -A tests/live/
 */
import assert from "node:assert/strict";
import OpenAI from "openai";
import { createSiftApp } from "../../app.ts";

const token = Deno.env.get("CLOUDFLARE_API_TOKEN");
const account = Deno.env.get("CLOUDFLARE_ACCOUNT_ID");
const ignore = !token || !account;
const base = Deno.env.get("CLOUDFLARE_API_BASE_URL") ?? "https://api.cloudflare.com/client/v4";

function liveEnv() {
  return {
    DEMO_CORPUS: "false",
    CLOUDFLARE_ACCOUNT_ID: account!,
    CLOUDFLARE_API_TOKEN: token!,
    CLOUDFLARE_API_BASE_URL: base,
  };
}

Deno.test({
  name: "live: /v2/rerank with @cf/baai/bge-reranker-base ranks the matching passage first",
  ignore,
  async fn() {
    const app = createSiftApp();
    const response = await app.request("/v2/rerank", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        model: "@cf/baai/bge-reranker-base",
        query: "What is the capital of France?",
        documents: [
          "Bananas are rich in potassium.",
          "Paris is the capital and largest city of France.",
          "The Pacific is the largest ocean.",
        ],
      }),
    }, liveEnv());
    assert.equal(response.status, 200, await response.clone().text());
    const body = await response.json() as { results: { index: number; relevance_score: number }[] };
    assert.equal(body.results[0]!.index, 1);
    assert.equal(body.results.length, 3);
  },
});

Deno.test({
  name: "live: Workers AI's OpenAI-compatible chat streams text and reports usage",
  ignore,
  async fn() {
    const client = new OpenAI({ apiKey: token!, baseURL: `${base}/accounts/${account}/ai/v1` });
    const stream = await client.chat.completions.create({
      model: "@cf/meta/llama-3.1-8b-instruct-fp8-fast",
      messages: [{ role: "user", content: "Say hello in one word." }],
      max_tokens: 8,
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = "";
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? "";
      usage = chunk.usage ?? usage;
    }
    assert.ok(text.length > 0);
    assert.ok((usage?.prompt_tokens ?? 0) > 0, "usage reported");
  },
});

Deno.test({
  name: "live: LLM_PROVIDER=workers-ai embeds with bge-base-en-v1.5 (768 dimensions) through sift",
  ignore,
  async fn() {
    const response = await createSiftApp().request("/v1/embeddings", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ input: ["sift reranks passages"] }),
    }, { ...liveEnv(), LLM_PROVIDER: "workers-ai" });
    assert.equal(response.status, 200, await response.clone().text());
    const body = await response.json() as { data: { embedding: number[] }[] };
    assert.equal(body.data[0]!.embedding.length, 768);
  },
});

Deno.test({
  name: "live: LLM_PROVIDER=workers-ai answers a question from its documents, streamed",
  ignore,
  async fn() {
    const response = await createSiftApp().request("/v1/answer", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        query: "What colour is the sky on Mars at noon?",
        documents: [{
          id: "mars",
          text: "On Mars the daytime sky is a butterscotch, pinkish colour.",
        }],
        stream: true,
      }),
    }, { ...liveEnv(), LLM_PROVIDER: "workers-ai" });
    assert.equal(response.status, 200);
    const text = await response.text();
    assert.match(text, /answer-delta/);
    assert.match(text, /event: done/);
  },
});

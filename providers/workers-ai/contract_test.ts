/**
 * The Workers AI adapters against the documented shapes, with no network:
 * the REST runner over an injected `fetch`, the binding runner over an
 * object shaped like the binding, the OpenAI-protocol adapter over a runner
 * whose stream arrives a byte at a time.
 */
import assert from "node:assert/strict";
import OpenAI from "openai";
import { SiftError, UpstreamError } from "../../shared/errors.ts";
import { restRunner } from "./rest.ts";
import { bindingRunner } from "./binding.ts";
import { openAiFetchOver } from "./openai-fetch.ts";
import { orderOf } from "./rerank.ts";
import type { WorkersAiRunner } from "./runner.ts";

const ACCOUNT = "0123456789abcdef0123456789abcdef";

function restWith(reply: () => Response, seen: Request[] = []) {
  return restRunner({
    apiBaseUrl: "https://api.cloudflare.invalid/client/v4",
    accountId: ACCOUNT,
    apiToken: "token",
    timeoutMs: 1000,
    fetch: (input, init) => {
      seen.push(new Request(input, init));
      return Promise.resolve(reply());
    },
  });
}

Deno.test("restRunner posts the inputs with the token and opens the {success, result} envelope", async () => {
  const seen: Request[] = [];
  const runner = restWith(
    () => Response.json({ success: true, result: { response: [] }, errors: [], messages: [] }),
    seen,
  );
  assert.deepEqual(await runner.run("@cf/baai/bge-reranker-base", { query: "q" }), {
    response: [],
  });
  assert.equal(
    seen[0]!.url,
    `https://api.cloudflare.invalid/client/v4/accounts/${ACCOUNT}/ai/run/@cf/baai/bge-reranker-base`,
  );
  assert.equal(seen[0]!.headers.get("authorization"), "Bearer token");
  assert.deepEqual(await seen[0]!.json(), { query: "q" });
});

Deno.test("restRunner maps Cloudflare's failures into sift's error family", async () => {
  const cases: [Response, RegExp, boolean][] = [
    [
      Response.json({ success: false, errors: [{ code: 5006, message: "x" }] }, { status: 400 }),
      /status 400, code 5006/,
      false,
    ],
    [Response.json({ success: false, errors: [] }, { status: 429 }), /rate limiting/, true],
    [Response.json({ success: false, errors: [{ code: 3040 }] }), /status 502, code 3040/, true],
    [new Response("<html>bad gateway</html>", { status: 502 }), /status 502/, true],
    [new Response("not json"), /cannot read/, false],
  ];
  for (const [response, message, retryable] of cases) {
    await assert.rejects(restWith(() => response).run("@cf/m", {}), (error: unknown) => {
      assert.ok(error instanceof UpstreamError);
      assert.match(error.message, message);
      assert.equal(error.isRetryable, retryable, error.message);
      assert.doesNotMatch(error.message, /bad gateway|"x"/);
      return true;
    });
  }
});

Deno.test("bindingRunner passes the gateway option and maps what the binding throws", async () => {
  const calls: unknown[][] = [];
  const ai = {
    run: (...args: unknown[]) => {
      calls.push(args);
      return Promise.resolve({ ok: true });
    },
  };
  const runner = bindingRunner(ai, () => ({ gateway: { id: "g" } }));
  assert.deepEqual(await runner.run("@cf/m", { text: ["a"] }), { ok: true });
  assert.deepEqual(calls, [["@cf/m", { text: ["a"] }, { gateway: { id: "g" } }]]);

  const failing = bindingRunner({ run: () => Promise.reject(new Error("InferenceUpstreamError")) });
  await assert.rejects(failing.run("@cf/m", {}), (error: unknown) => {
    assert.ok(error instanceof UpstreamError && error.isRetryable);
    return true;
  });
  const aborted = new AbortController();
  aborted.abort();
  await assert.rejects(failing.run("@cf/m", {}, aborted.signal), (error: unknown) => {
    return error instanceof SiftError || (error as Error).name === "AbortError";
  });
});

/** A runner whose stream arrives one byte at a time, as a binding's may. */
function byteStreamRunner(events: unknown[]): WorkersAiRunner {
  const text = events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join("") +
    "data: [DONE]\n\n";
  const bytes = new TextEncoder().encode(text);
  return {
    via: "binding",
    run: () =>
      Promise.resolve(
        new ReadableStream<Uint8Array>({
          start(controller) {
            for (const byte of bytes) controller.enqueue(new Uint8Array([byte]));
            controller.close();
          },
        }),
      ),
  };
}

Deno.test("the OpenAI adapter turns Workers AI's stream into chat.completion.chunks with usage last", async () => {
  const client = new OpenAI({
    apiKey: "binding",
    baseURL: "http://workers-ai.binding/v1",
    fetch: openAiFetchOver(byteStreamRunner([
      { response: "Héllo", p: "x" },
      { response: " world" },
      { response: "", usage: { prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 } },
    ])),
  });
  const stream = await client.chat.completions.create({
    model: "@cf/meta/llama-3.1-8b-instruct-fp8-fast",
    messages: [{ role: "user", content: "hi" }],
    stream: true,
    stream_options: { include_usage: true },
  });
  let text = "";
  let usage: OpenAI.CompletionUsage | undefined;
  for await (const chunk of stream) {
    text += chunk.choices[0]?.delta?.content ?? "";
    usage = chunk.usage ?? usage;
  }
  assert.equal(text, "Héllo world");
  assert.deepEqual(usage, { prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 });
});

Deno.test("the OpenAI adapter answers a JSON-mode object reply as text, and an unreadable one as 502", async () => {
  const runner = (result: unknown): WorkersAiRunner => ({
    via: "binding",
    run: () => Promise.resolve(result),
  });
  const ask = (result: unknown) =>
    new OpenAI({
      apiKey: "binding",
      baseURL: "http://workers-ai.binding/v1",
      maxRetries: 0,
      fetch: openAiFetchOver(runner(result)),
    }).chat.completions.create({ model: "m", messages: [{ role: "user", content: "hi" }] });
  const completion = await ask({ response: { documents: [] }, usage: { prompt_tokens: 3 } });
  assert.equal(completion.choices[0]!.message.content, '{"documents":[]}');
  assert.deepEqual(completion.usage, { prompt_tokens: 3, completion_tokens: 0, total_tokens: 3 });
  await assert.rejects(ask({ response: 42 }), (error: unknown) => {
    assert.ok(error instanceof OpenAI.APIError);
    assert.equal(error.status, 502);
    return true;
  });
});

Deno.test("orderOf() keeps the model's order, drops bad ids and appends what it left out", () => {
  assert.deepEqual(
    orderOf({
      response: [{ id: 2, score: 0.9 }, { id: 7, score: 5 }, { id: 2, score: 0.1 }, {
        id: 0,
        score: 0.3,
      }],
    }, 4),
    [{ index: 2, score: 0.9 }, { index: 0, score: 0.3 }, { index: 1, score: -0.7 }, {
      index: 3,
      score: -0.7,
    }],
  );
});

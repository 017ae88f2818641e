import assert from "node:assert/strict";
import { createOfflineModel } from "../../shared/llm/offline/model.ts";
import { createSiftApp } from "../../app.ts";

/**
 * An OpenAI-compatible upstream whose chat stream outlasts the test: a token
 * every 20 ms for 5 s (bounded, so a failing run still ends), recording when
 * its reader goes away.
 */
function startEndlessUpstream() {
  const offline = createOfflineModel();
  let cancelled: () => void;
  const upstreamCancelled = new Promise<void>((resolve) => (cancelled = resolve));
  let chatRequests = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    if (!new URL(request.url).pathname.endsWith("/chat/completions")) {
      return offline.handle(request);
    }
    chatRequests++;
    await request.body?.cancel();
    const encoder = new TextEncoder();
    let timer: ReturnType<typeof setInterval> | undefined;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        let sent = 0;
        timer = setInterval(() => {
          if (++sent > 250) {
            clearInterval(timer);
            controller.close();
            return;
          }
          const chunk = {
            id: "c",
            object: "chat.completion.chunk",
            created: 0,
            model: "endless",
            choices: [{ index: 0, delta: { content: "word " }, finish_reason: null }],
          };
          controller.enqueue(encoder.encode(`data: ${JSON.stringify(chunk)}\n\n`));
        }, 20);
      },
      cancel() {
        clearInterval(timer);
        cancelled();
      },
    });
    return new Response(body, { headers: { "content-type": "text/event-stream" } });
  });
  return {
    baseURL: `http://127.0.0.1:${server.addr.port}/v1`,
    upstreamCancelled,
    chatRequests: () => chatRequests,
    close: () => server.shutdown(),
  };
}

Deno.test("a client that leaves /v1/query mid-answer cancels the upstream LLM stream", async () => {
  const upstream = startEndlessUpstream();
  try {
    const app = createSiftApp();
    const env = { LLM_BASE_URL: upstream.baseURL, LLM_API_KEY: "test" };
    const response = await app.request("/v1/query", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "What is reciprocal rank fusion?" }),
    }, env);
    assert.equal(response.status, 200);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let seen = "";
    while (!seen.includes("event: answer-delta")) {
      const { value, done } = await reader.read();
      assert.equal(done, false, `stream ended before any answer-delta: ${seen}`);
      seen += decoder.decode(value);
    }
    // Not awaited: the point is what happens upstream, not when cancel() settles.
    reader.cancel().catch(() => {});
    const timeout = new Promise<"timeout">((resolve) => {
      const id = setTimeout(() => resolve("timeout"), 3000);
      upstream.upstreamCancelled.then(() => clearTimeout(id));
    });
    const outcome = await Promise.race([
      upstream.upstreamCancelled.then(() => "cancelled"),
      timeout,
    ]);
    assert.equal(
      outcome,
      "cancelled",
      "the upstream stream was still being read 3 s after the client left",
    );
    assert.equal(upstream.chatRequests(), 1);
  } finally {
    await upstream.close();
  }
});

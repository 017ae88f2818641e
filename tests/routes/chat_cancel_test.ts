/**
 * A chat client that leaves cancels the pipeline: the answer's LLM stream
 * upstream (a loopback server that streams for 5 s) stops being read.
 */
import assert from "node:assert/strict";
import { cancelledWithin, startEndlessUpstream } from "../helpers/endless_upstream.ts";
import { CORPUS } from "./corpus.ts";
import { EMPTY_ENV, testApp, withoutErrorLogs } from "./helpers.ts";

const QUESTION = { role: "user", content: "What is reciprocal rank fusion?" };

async function appOver(upstream: ReturnType<typeof startEndlessUpstream>) {
  const setup = testApp({ ...EMPTY_ENV, LLM_BASE_URL: upstream.baseURL, LLM_API_KEY: "test" });
  assert.equal((await setup.post("/v1/documents", { documents: CORPUS })).status, 201);
  return setup;
}

Deno.test("a client that leaves a streamed chat completion mid-answer cancels the LLM stream", async () => {
  const upstream = startEndlessUpstream();
  try {
    const { post } = await appOver(upstream);
    const response = await post("/v1/chat/completions", {
      model: "sift-none",
      messages: [QUESTION],
      stream: true,
    });
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let seen = "";
    while (!seen.includes('"content":"word')) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the stream ended before any content: ${seen}`);
      seen += decoder.decode(value);
    }
    reader.cancel().catch(() => {});
    assert.equal(await cancelledWithin(upstream, 3000), "cancelled");
    assert.equal(upstream.endlessRequests(), 1);
  } finally {
    await upstream.close();
  }
});

Deno.test("a client that leaves a whole chat completion cancels the LLM stream", async () => {
  const upstream = startEndlessUpstream();
  try {
    const { app, env } = await appOver(upstream);
    const controller = new AbortController();
    const pending = withoutErrorLogs(() =>
      Promise.resolve(app.request("/v1/chat/completions", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: "sift-none", messages: [QUESTION] }),
        signal: controller.signal,
      }, env)).catch(() => undefined)
    );
    while (upstream.endlessRequests() === 0) await new Promise((r) => setTimeout(r, 10));
    controller.abort();
    assert.equal(await cancelledWithin(upstream, 3000), "cancelled");
    await pending;
  } finally {
    await upstream.close();
  }
});

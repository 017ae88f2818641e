/**
 * The connection belongs to the server (`Deno.serve`, workerd): sift's streams
 * carry no `connection` header of their own (hono's `streamSSE` and the MCP
 * SDK each write `connection: keep-alive`), and the one reply that must end
 * its connection, a 408 for a body that stalled, says `connection: close`.
 */
import assert from "node:assert/strict";
import { EMPTY_ENV, testApp } from "./helpers.ts";

Deno.test("streams (/v1/query, chat, /mcp) carry no connection or keep-alive header", async () => {
  const { post } = testApp();
  const replies = [
    await post("/v1/query", { query: "What is sift?" }),
    await post("/v1/chat/completions", {
      model: "sift-none",
      stream: true,
      messages: [{ role: "user", content: "What is sift?" }],
    }),
    await post("/mcp", {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "test", version: "1" },
      },
    }, { accept: "application/json, text/event-stream" }),
  ];
  for (const reply of replies) {
    assert.equal(reply.status, 200, await reply.clone().text());
    assert.match(reply.headers.get("content-type") ?? "", /text\/event-stream/);
    assert.equal(reply.headers.get("connection"), null, reply.url);
    assert.equal(reply.headers.get("keep-alive"), null, reply.url);
    await reply.text();
  }
});

Deno.test("a body that stalls past BODY_READ_TIMEOUT_MS gets 408 with connection: close", async () => {
  const { app, env } = testApp({ ...EMPTY_ENV, BODY_READ_TIMEOUT_MS: "200" });
  let pulls = 0;
  const stalled = new ReadableStream<Uint8Array>({
    pull(controller) {
      // The first chunk, then nothing: a client that stopped sending.
      if (pulls++ === 0) controller.enqueue(new TextEncoder().encode('{"query": "sta'));
      return new Promise(() => {});
    },
  });
  const reply = await app.request("/v1/search", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: stalled,
    duplex: "half",
  } as RequestInit, env);
  assert.equal(reply.status, 408);
  assert.equal(reply.headers.get("connection"), "close");
  assert.equal((await reply.json()).error.type, "timeout");
});

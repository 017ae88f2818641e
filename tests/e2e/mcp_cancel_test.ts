/**
 * Cancelling an MCP `ask` mid-answer stops the model's stream, checked on the
 * model server's side: an upstream that streams answer tokens for seconds
 * and records when its reader goes away.
 */
import assert from "node:assert/strict";
import { createSiftApp } from "../../app.ts";
import { cancelledWithin, startEndlessUpstream } from "../helpers/endless_upstream.ts";
import { connectMcp } from "../helpers/mcp_client.ts";
import { startService } from "./service.ts";

const QUESTION = { query: "What is reciprocal rank fusion?", preset: "none" };

Deno.test("an MCP client that cancels ask mid-answer stops the model's stream (notifications/cancelled)", async () => {
  const upstream = startEndlessUpstream();
  const dataDir = await Deno.makeTempDir({ prefix: "sift-mcp-cancel-" });
  try {
    await using sift = await startService({
      SIFT_DATA_DIR: dataDir,
      LLM_BASE_URL: upstream.baseURL,
      LLM_API_KEY: "test",
    });
    const { client, close } = await connectMcp(sift.url);
    try {
      const controller = new AbortController();
      const call = client.callTool({ name: "ask", arguments: QUESTION }, undefined, {
        signal: controller.signal,
        // The first answer token arrives after retrieval's notification: the model is streaming.
        onprogress: (note) => {
          if (!note.message?.startsWith("retrieval done")) controller.abort("enough");
        },
      });
      await assert.rejects(call);
      assert.equal(
        await cancelledWithin(upstream, 3000),
        "cancelled",
        "the model's stream was still being read 3 s after the client cancelled",
      );
      assert.equal(upstream.endlessRequests(), 1);
    } finally {
      await close();
    }
  } finally {
    await upstream.close();
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  }
});

/**
 * `fetch` whose reply body is cancelled (its connection closed) when the request's signal
 * aborts, as a browser does: Deno's `fetch` may go on reading a body after an abort, and the
 * server cannot see a client leave while its socket is open and read.
 */
const leavingFetch: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  const signal = init?.signal;
  if (!response.body || !signal) return response;
  const reader = response.body.getReader();
  const leave = () => void reader.cancel().catch(() => {});
  signal.addEventListener("abort", leave, { once: true });
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel: leave,
  });
  return new Response(body, response);
};

Deno.test("an MCP client that disconnects mid-answer stops the model's stream", async () => {
  const upstream = startEndlessUpstream();
  const dataDir = await Deno.makeTempDir({ prefix: "sift-mcp-leave-" });
  try {
    await using sift = await startService({
      SIFT_DATA_DIR: dataDir,
      LLM_BASE_URL: upstream.baseURL,
      LLM_API_KEY: "test",
    });
    const { client, close } = await connectMcp(sift.url, { fetch: leavingFetch });
    let closed: Promise<void> | undefined;
    const call = client.callTool({ name: "ask", arguments: QUESTION }, undefined, {
      onprogress: (note) => {
        if (!closed && !note.message?.startsWith("retrieval done")) closed = close();
      },
    });
    await assert.rejects(call);
    await closed;
    assert.equal(
      await cancelledWithin(upstream, 3000),
      "cancelled",
      "the model's stream was still being read 3 s after the client left",
    );
  } finally {
    await upstream.close();
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  }
});

Deno.test("MCP_READ_ONLY=true offers no ingest tool, and calling it is a tool error", async () => {
  const app = createSiftApp();
  const env = { MCP_READ_ONLY: "true", DEMO_CORPUS: "false" };
  const { client, close } = await connectMcp("http://sift.test", {
    fetch: (url, init) => app.fetch(new Request(url, init), env) as Promise<Response>,
  });
  try {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((tool) => tool.name).sort(), ["ask", "rerank", "search"]);
    for (const tool of tools) assert.equal(tool.annotations?.readOnlyHint, true);
    const result = await client.callTool({
      name: "ingest",
      arguments: { documents: [{ text: "x" }] },
    });
    assert.equal(result.isError, true);
  } finally {
    await close();
  }
});

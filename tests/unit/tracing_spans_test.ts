/**
 * sift's spans as an in-process recorder sees them: model calls with the
 * GenAI attributes and their tokens, rerank batches, MCP tool calls, and a
 * failed call marked as such. (Parentage and export: tests/e2e/tracing_test.ts.)
 */
import assert from "node:assert/strict";
import { createSiftApp } from "../../app.ts";
import { testApp } from "../routes/helpers.ts";
import { connectMcp } from "../helpers/mcp_client.ts";
import { recordSpans } from "../helpers/recording_tracer.ts";

const DOCUMENTS = [
  "BM25 ranks documents by term frequency and inverse document frequency.",
  "Dense retrieval ranks documents by embedding similarity.",
  "Cats sleep for most of the day.",
];

Deno.test("spans: a rerank's batches and model calls, with gen_ai.* and their tokens", async () => {
  const recorder = recordSpans();
  try {
    const send = testApp({ DEMO_CORPUS: "false" }).post;
    const response = await send("/v1/rerank", {
      query: "How does BM25 rank documents?",
      documents: DOCUMENTS,
      strategy: "one-turn",
      batch_size: 2,
    });
    assert.equal(response.status, 200);
    const batches = recorder.spans.filter((span) => span.name === "sift.rerank.batch");
    assert.deepEqual(batches.map((span) => span.attributes["sift.rerank.batch_size"]), [2, 1]);
    const calls = recorder.spans.filter((span) => span.name === "chat sift-offline");
    assert.equal(calls.length, 2);
    for (const call of calls) {
      assert.equal(call.attributes["gen_ai.operation.name"], "chat");
      assert.equal(call.attributes["gen_ai.provider.name"], "sift.offline");
      assert.equal(call.attributes["gen_ai.request.model"], "sift-offline");
      assert.equal(call.attributes["gen_ai.response.model"], "sift-offline");
      assert.ok(Number(call.attributes["gen_ai.usage.input_tokens"]) > 0);
      assert.ok(Number(call.attributes["gen_ai.usage.output_tokens"]) > 0);
      assert.ok(call.ended);
    }
  } finally {
    recorder.stop();
  }
});

Deno.test("spans: an MCP tool call is an execute_tool span; a failed model call is marked ERROR", async () => {
  const recorder = recordSpans();
  try {
    const app = createSiftApp();
    const env = { DEMO_CORPUS: "true" };
    const mcp = await connectMcp("http://sift.test", {
      fetch: (input, init) => Promise.resolve(app.fetch(new Request(input, init), env)),
    });
    try {
      await mcp.client.callTool({ name: "search", arguments: { query: "What is sift?" } });
    } finally {
      await mcp.close();
    }
    const tool = recorder.spans.find((span) => span.name === "execute_tool search");
    assert.ok(tool, recorder.spans.map((span) => span.name).join(", "));
    assert.equal(tool.attributes["gen_ai.tool.name"], "search");
    assert.ok(tool.ended);

    const failing = testApp({
      DEMO_CORPUS: "false",
      OFFLINE_MODEL_FAULTS: "http500=1",
    }).post;
    const original = console.error;
    console.error = () => {};
    try {
      await (await failing("/v1/answer", { query: "q", documents: DOCUMENTS })).arrayBuffer();
    } finally {
      console.error = original;
    }
    const failed = recorder.spans.filter((span) =>
      span.name === "chat sift-offline" && span.status
    );
    assert.ok(failed.length > 0);
    assert.equal(failed[0]!.status!.code, 2); // SpanStatusCode.ERROR
    assert.ok(failed[0]!.attributes["error.type"]);
  } finally {
    recorder.stop();
  }
});

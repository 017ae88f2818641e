/**
 * Traces from outside, as a team would set them up: the server started with
 * `OTEL_DENO=true` and an OTLP endpoint (a loopback receiver here), one
 * `/v1/query` with a two-turn rerank sent with a caller's `traceparent`.
 * Deno's own exporter sends the spans; this test decodes what arrives.
 */
import assert from "node:assert/strict";
import { startService } from "./service.ts";
import { type ReceivedSpan, startOtlpReceiver } from "../helpers/otlp_receiver.ts";
import { readEvents } from "../routes/helpers.ts";

const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
const CALLER_SPAN = "00f067aa0ba902b7";

function inTrace(spans: ReceivedSpan[]) {
  return spans.filter((span) => span.traceId === TRACE_ID);
}

/** The ids of `span`'s parents, nearest first, as far as the received spans reach. */
function ancestors(spans: ReceivedSpan[], span: ReceivedSpan): string[] {
  const byId = new Map(spans.map((each) => [each.spanId, each]));
  const ids: string[] = [];
  let cursor: ReceivedSpan | undefined = span;
  while (cursor && ids.length < 50) {
    ids.push(cursor.parentSpanId);
    cursor = byId.get(cursor.parentSpanId);
  }
  return ids;
}

Deno.test("a /v1/query with a traceparent exports its steps and model calls into that trace", async () => {
  const receiver = startOtlpReceiver();
  const dataDir = await Deno.makeTempDir();
  const service = await startService({
    OTEL_DENO: "true",
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
    OTEL_SERVICE_NAME: "sift-test",
    OTEL_BSP_SCHEDULE_DELAY: "200",
    SIFT_DATA_DIR: dataDir,
  });
  try {
    const response = await fetch(`${service.url}/v1/query`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        traceparent: `00-${TRACE_ID}-${CALLER_SPAN}-01`,
      },
      body: JSON.stringify({
        query: "How does sift rerank passages?",
        pipeline: { retrieval: { mode: "hybrid", fusion: 2 }, rerank: { strategy: "two-turn" } },
      }),
    });
    assert.equal(response.status, 200);
    const events = await readEvents(response);
    assert.ok(events.some((event) => event.event === "done"));
    const wanted = ["sift.query", "sift.step rerank", "sift.step answer", "sift.rerank.batch"];
    const spans = inTrace(
      // Spans come in batches: wait for a parent as well as its children.
      await receiver.waitFor((all) =>
        wanted.every((name) => inTrace(all).some((span) => span.name === name)) &&
        inTrace(all).filter((span) => span.name.startsWith("chat ")).length >= 4 &&
        inTrace(all).every((span) => ancestors(inTrace(all), span).includes(CALLER_SPAN))
      ),
    );
    const names = spans.map((span) => span.name);
    for (const name of [...wanted, "sift.step fuse", "sift.step generate-rubric"]) {
      assert.ok(names.includes(name), `no ${name} span in ${names.join(", ")}`);
    }
    assert.ok(
      names.filter((name) => name === "sift.retrieval variation").length >= 1,
      names.join(),
    );

    // Every span is in the caller's trace and hangs off the tree rooted at the caller's span.
    const byId = new Map(spans.map((span) => [span.spanId, span]));
    for (const span of spans) {
      assert.ok(
        ancestors(spans, span).includes(CALLER_SPAN),
        `${span.name} is not under the caller's span`,
      );
    }

    const query = spans.find((span) => span.name === "sift.query")!;
    assert.equal(query.attributes["sift.strategy"], "two-turn");
    assert.equal(query.attributes["sift.namespace"], "default");
    assert.equal(typeof query.attributes["sift.degraded"], "boolean");
    const rubric = spans.find((span) => span.name === "sift.step generate-rubric")!;
    assert.equal(rubric.attributes["sift.cache.hit"], false);

    // Every model call: the GenAI attributes, with its tokens.
    const modelCalls = spans.filter((span) => span.attributes["gen_ai.operation.name"] === "chat");
    assert.ok(modelCalls.length >= 4, `only ${modelCalls.length} chat spans`);
    for (const call of modelCalls) {
      assert.equal(call.attributes["gen_ai.provider.name"], "sift.offline");
      assert.equal(call.attributes["gen_ai.request.model"], "sift-offline");
      assert.equal(typeof call.attributes["gen_ai.response.model"], "string");
      assert.ok(Number(call.attributes["gen_ai.usage.input_tokens"]) > 0, call.name);
      assert.ok(Number(call.attributes["gen_ai.usage.output_tokens"]) > 0, call.name);
      // Token counts leave Deno's exporter as OTLP integers, as the conventions type them.
      for (const key of ["gen_ai.usage.input_tokens", "gen_ai.usage.output_tokens"]) {
        assert.ok(call.integers.includes(key), `${call.name}: ${key} is not an intValue`);
      }
    }
    const answerCall = modelCalls.find((call) =>
      byId.get(call.parentSpanId)?.name === "sift.step answer"
    );
    assert.ok(answerCall, "the answer's streamed model call is not under the answer step");
    assert.ok(receiver.contentTypes.has("application/json"));
  } finally {
    await service.close();
    await receiver.close();
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("a step reached over HTTP (STEP_URL_ANSWER, a stream) stays in the caller's trace", async () => {
  const receiver = startOtlpReceiver();
  const otel = {
    OTEL_DENO: "true",
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
    OTEL_BSP_SCHEDULE_DELAY: "200",
  };
  const dataDir = await Deno.makeTempDir();
  const answer = await startService({ ...otel, OTEL_SERVICE_NAME: "sift-answer" }, [
    "scripts/serve.ts",
    "answer",
  ]);
  try {
    const service = await startService({
      ...otel,
      OTEL_SERVICE_NAME: "sift-orchestrator",
      STEP_URL_ANSWER: answer.url,
      SIFT_DATA_DIR: dataDir,
    });
    try {
      const response = await fetch(`${service.url}/v1/query`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          traceparent: `00-${TRACE_ID}-${CALLER_SPAN}-01`,
        },
        body: JSON.stringify({ query: "What is sift?" }),
      });
      assert.equal(response.status, 200);
      await readEvents(response);
      const spans = inTrace(
        // Each process exports in batches of its own: the answer's model call, and the
        // parents its spans hang off, can come in later batches than its first spans.
        // So wait for the model call and for every remote span's whole chain.
        await receiver.waitFor((all) => {
          const trace = inTrace(all);
          const step = trace.find((span) => span.name === "sift.step answer");
          const remote = trace.filter((span) => span.service === "sift-answer");
          return step !== undefined &&
            remote.some((span) => span.attributes["gen_ai.operation.name"] === "chat") &&
            remote.every((span) => ancestors(trace, span).includes(step.spanId));
        }),
      );
      const remote = spans.filter((span) => span.service === "sift-answer");
      assert.ok(remote.length > 0, "the answer process exported no span in the caller's trace");
      assert.ok(
        remote.some((span) => span.attributes["gen_ai.operation.name"] === "chat"),
        "the answer's model call is in the trace, from the answer process",
      );
      // The answer process's spans hang, through the orchestrator's step span, off the caller's.
      const step = spans.find((span) => span.name === "sift.step answer")!;
      assert.equal(step.service, "sift-orchestrator");
      for (const span of remote) {
        assert.ok(
          ancestors(spans, span).includes(step.spanId),
          `${span.name} is not under the answer step span`,
        );
      }
    } finally {
      await service.close();
    }
  } finally {
    await answer.close();
    await receiver.close();
    await Deno.remove(dataDir, { recursive: true });
  }
});

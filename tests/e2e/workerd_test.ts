/**
 * The all-in-one Worker under workerd: `wrangler dev` (local, offline) serves
 * `/healthz`, streams `/v1/query` as server-sent events and maps a bad body to
 * a 400, the same as the Deno server does. Slow (wrangler bundles, then starts
 * workerd: ~5-15 s), so it starts one wrangler for all its steps.
 */
import assert from "node:assert/strict";
import { pgrep, startWranglerDev, type WranglerDev } from "../../scripts/wrangler-dev.ts";

/** Paced so answer tokens are tens of milliseconds apart: a buffered body would show it. */
const OFFLINE_MODEL_LATENCY = "ttft=20ms,tps=200";

type SseEvent = { event: string; data: unknown; atMs: number; read: number };

/** Reads a `text/event-stream` body as it arrives, noting when and in which read each event came. */
async function readEvents(body: ReadableStream<Uint8Array>, startedAt: number) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  const events: SseEvent[] = [];
  let buffer = "";
  let reads = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    reads += 1;
    buffer += value.replaceAll("\r\n", "\n");
    let end: number;
    while ((end = buffer.indexOf("\n\n")) !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = "message";
      const data: string[] = [];
      for (const line of block.split("\n")) {
        if (line.startsWith("event:")) event = line.slice(6).trim();
        else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
      }
      if (data.length === 0) continue;
      events.push({
        event,
        data: JSON.parse(data.join("\n")),
        atMs: performance.now() - startedAt,
        read: reads,
      });
    }
  }
  return { events, endedAtMs: performance.now() - startedAt, rest: buffer };
}

type Health = { status?: unknown; providers?: Record<string, unknown> };

function asHealth(value: unknown): Health {
  assert.ok(value && typeof value === "object", "healthz: not an object");
  return value as Health;
}

Deno.test("the all-in-one worker serves, streams and validates under workerd (wrangler dev)", async (t) => {
  const scratchDir = await Deno.makeTempDir({ prefix: "sift-workerd-" });
  let wrangler: WranglerDev | undefined;
  let failed = true;
  try {
    wrangler = await startWranglerDev(["wrangler.toml"], {
      persistTo: `${scratchDir}/state`,
      vars: { OFFLINE_MODEL_LATENCY },
    });
    const dev = wrangler;

    // A failed step does not throw in the parent: stop at the first one.
    const started = await t.step(
      "GET /healthz answers: offline model, state in the Durable Object",
      async () => {
        await dev.ready("/healthz");
        const health = asHealth(await (await dev.fetch("/healthz")).json());
        assert.equal(health.status, "ok");
        assert.deepEqual(health.providers, {
          llm: "offline",
          embeddings: "offline",
          index: "durable-object",
          cache: "durable-object",
        });
      },
    );

    if (!started) return;
    const streamed = await t.step(
      "POST /v1/query streams retrieval, answer deltas, answer, usage, done",
      async () => {
        const startedAt = performance.now();
        const response = await dev.fetch("/v1/query", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ query: "What is reciprocal rank fusion?" }),
        });
        assert.equal(response.status, 200);
        assert.match(response.headers.get("content-type") ?? "", /^text\/event-stream/);
        assert.ok(response.body);
        const { events, endedAtMs, rest } = await readEvents(response.body, startedAt);
        const names = events.map((event) => event.event);
        const timeline = events.map((event) =>
          `${event.event}@${event.atMs.toFixed(1)}ms(read ${event.read})`
        ).join(", ");

        assert.equal(rest.trim(), "", "the stream ended mid-event");
        assert.equal(names[0], "retrieval-end", timeline);
        const deltaCount = names.slice(1).findIndex((name) => name !== "answer-delta");
        assert.ok(deltaCount >= 1, `expected answer-delta events after retrieval-end: ${timeline}`);
        assert.deepEqual(names.slice(1 + deltaCount), ["answer-end", "usage", "done"], timeline);

        const retrieval = events[0]!.data as { results: unknown[] };
        assert.ok(retrieval.results.length > 0, "retrieval-end has no results");

        const deltas = events.filter((event) => event.event === "answer-delta");
        const answerEnd = events.find((event) => event.event === "answer-end")!.data as {
          answer: string;
          citations: unknown[];
        };
        assert.match(answerEnd.answer, /\[\d+\]/);
        assert.ok(answerEnd.citations.length > 0, "answer-end has no citations");
        assert.equal(
          deltas.map((event) => (event.data as { text: string }).text).join(""),
          answerEnd.answer,
        );
        const usage = events.find((event) => event.event === "usage")!.data as {
          steps: { name: string; via: string }[];
        };
        // The all-in-one Worker runs its steps in its own isolate.
        assert.deepEqual(usage.steps.map((step) => `${step.name}:${step.via}`), [
          "retrieval:in-process",
          "answer:in-process",
        ]);

        // Streamed, not buffered: the first token reached us while the answer was
        // still being written, in an earlier read than the last one.
        const firstDelta = deltas[0]!;
        const lastDelta = deltas.at(-1)!;
        assert.ok(firstDelta.atMs < endedAtMs, timeline);
        // In reads of their own; how far apart in time is a benchmark's question, not a test's (two
        // suites at once once brought them within 0.5 ms).
        assert.ok(firstDelta.read < lastDelta.read, `deltas arrived in one read: ${timeline}`);
        console.log(`workerd /v1/query: ${timeline}; ended @${endedAtMs.toFixed(1)}ms`);
      },
    );

    if (!streamed) return;
    const rejected = await t.step(
      "POST /v1/query with an empty query is a 400 naming the field",
      async () => {
        const response = await dev.fetch("/v1/query", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ query: "" }),
        });
        assert.equal(response.status, 400);
        assert.match(response.headers.get("content-type") ?? "", /^application\/json/);
        const body = await response.json() as { error?: { type?: unknown; message?: unknown } };
        assert.equal(body.error?.type, "invalid_request");
        assert.equal(typeof body.error?.message, "string");
        assert.match(body.error.message as string, /query/);
      },
    );
    failed = !rejected;
  } finally {
    await wrangler?.stop();
    if (failed && wrangler) console.error(`--- wrangler dev output ---\n${wrangler.output()}`);
    await Deno.remove(scratchDir, { recursive: true }).catch(() => {});
    // Nothing this test started may outlive it.
    if (wrangler) {
      assert.equal(
        await pgrep("-f", `workerd.*127\\.0\\.0\\.1:${wrangler.port}`),
        "",
        "a workerd from this test is still running",
      );
    }
  }
});

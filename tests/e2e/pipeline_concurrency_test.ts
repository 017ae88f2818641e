/**
 * The orchestrator generates a two-turn rubric while the fuse step (query
 * variations, then retrieval) runs. With the offline model paced like a real
 * one (OFFLINE_MODEL_LATENCY), a query takes about max(rubric, fuse) + rerank
 * + answer, not their sum: checked against the same
 * steps run one after another (`sequential: true`), in the same run, with
 * ratios rather than fixed wall-clock thresholds.
 */
import assert from "node:assert/strict";
import { createSiftApp } from "../../app.ts";
import { readEvents } from "../routes/helpers.ts";

type Step = { name: string; started_ms: number; ended_ms: number };
type Usage = { steps: Step[]; total_ms: number };

const ENV = { OFFLINE_MODEL_LATENCY: "ttft=150ms,tps=300" };
const QUERY = "How does hybrid search compare with dense retrieval in sift?";
const PIPELINE = { retrieval: { fusion: 4 }, rerank: { strategy: "two-turn" } };

/** One query on a fresh app (cold caches), returning the `usage` event's step times. */
async function timedQuery(sequential: boolean): Promise<Usage> {
  const app = createSiftApp();
  const response = await app.request("/v1/query", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query: QUERY, pipeline: { ...PIPELINE, sequential } }),
  }, ENV);
  assert.equal(response.status, 200);
  const events = await readEvents(response);
  const names = events.map((event) => event.event).filter((name) => name !== "answer-delta");
  assert.deepEqual(names, [
    "retrieval-end",
    "rubric-end",
    "rerank-end",
    "answer-end",
    "usage",
    "done",
  ]);
  return events.find((event) => event.event === "usage")!.data as Usage;
}

function stepsOf(usage: Usage) {
  const step = (name: string) => {
    const found = usage.steps.find((s) => s.name === name);
    assert.ok(found, `a ${name} step in ${usage.steps.map((s) => s.name)}`);
    return { ...found, duration: found.ended_ms - found.started_ms };
  };
  const fuse = step("fuse");
  return {
    rubric: step("rubric"),
    fuse,
    rerank: step("rerank"),
    answer: step("answer"),
    /** Query variations, then retrieval: the path the rubric runs beside. */
    retrievalPath: fuse.duration,
  };
}

function within(actual: number, expected: number, label: string) {
  const tolerance = 0.15 * expected + 50;
  assert.ok(
    Math.abs(actual - expected) <= tolerance,
    `${label}: ${actual.toFixed(1)} ms, expected ${expected.toFixed(1)} ± ${tolerance.toFixed(1)}`,
  );
}

Deno.test("a two-turn query with fusion takes max(rubric, fuse) + rerank + answer, not their sum", async () => {
  const concurrentUsage = await timedQuery(false);
  const sequentialUsage = await timedQuery(true);
  const concurrent = stepsOf(concurrentUsage);
  const sequential = stepsOf(sequentialUsage);

  const describe = (label: string, usage: Usage) =>
    `${label}: total ${usage.total_ms} ms; ` +
    usage.steps.map((s) => `${s.name} ${s.started_ms}-${s.ended_ms}`).join(", ");
  console.log(describe("concurrent", concurrentUsage));
  console.log(describe("sequential", sequentialUsage));

  // Concurrent: the rubric runs while the fuse step does.
  assert.ok(
    concurrent.rubric.started_ms < concurrent.fuse.ended_ms &&
      concurrent.fuse.started_ms < concurrent.rubric.ended_ms,
    "the rubric step overlaps the fuse step",
  );
  // Rerank waits for both; the answer waits for the rerank.
  assert.ok(
    concurrent.rerank.started_ms >=
      Math.max(concurrent.rubric.ended_ms, concurrent.fuse.ended_ms),
  );
  assert.ok(concurrent.answer.started_ms >= concurrent.rerank.ended_ms);
  within(
    concurrentUsage.total_ms,
    Math.max(concurrent.rubric.ended_ms, concurrent.fuse.ended_ms) +
      concurrent.rerank.duration + concurrent.answer.duration,
    "concurrent total",
  );

  // Sequential: no overlap, so the total is the sum of the steps.
  assert.ok(sequential.rubric.started_ms >= sequential.fuse.ended_ms);
  within(
    sequentialUsage.total_ms,
    sequential.retrievalPath + sequential.rubric.duration + sequential.rerank.duration +
      sequential.answer.duration,
    "sequential total",
  );

  // What running side by side saves: most of the shorter of the two parallel paths.
  const overlap = Math.min(sequential.rubric.duration, sequential.retrievalPath);
  const saved = sequentialUsage.total_ms - concurrentUsage.total_ms;
  console.log(
    `saved ${saved.toFixed(1)} ms of a possible ${overlap.toFixed(1)} ms ` +
      `(rubric ${sequential.rubric.duration.toFixed(1)} ms, fuse ` +
      `${sequential.retrievalPath.toFixed(1)} ms)`,
  );
  assert.ok(
    saved >= 0.7 * overlap,
    `concurrent ${concurrentUsage.total_ms} ms vs sequential ${sequentialUsage.total_ms} ms: ` +
      `saved ${saved.toFixed(1)} ms, expected at least 70% of ${overlap.toFixed(1)} ms`,
  );
});

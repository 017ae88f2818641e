/**
 * The orchestrator generates a two-turn rubric while the fuse step (query
 * variations, then retrieval) runs. With the offline model paced like a real
 * one (OFFLINE_MODEL_LATENCY), checked on the intervals the server measures
 * for each step (its `usage` event), never on how long anything took: the
 * rubric's interval overlaps the fuse step's, rerank starts after both end,
 * the answer after rerank; with `sequential: true` no two intervals overlap.
 * What the overlap saves in time is a ratio in the benchmarks
 * (`scripts/bench-pipeline.ts`, "fusion + two-turn": sequential / concurrent),
 * so a loaded machine cannot fail this test.
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

Deno.test("a two-turn query with fusion runs the rubric beside the fuse step, then rerank, then the answer; sequential runs them one by one", async () => {
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

  // Sequential: no two steps overlap.
  assert.ok(sequential.rubric.started_ms >= sequential.fuse.ended_ms);
  assert.ok(sequential.rerank.started_ms >= sequential.rubric.ended_ms);
  assert.ok(sequential.answer.started_ms >= sequential.rerank.ended_ms);
});

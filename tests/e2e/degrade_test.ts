/**
 * Done-when of "degrade, don't fail", against the real server: with every
 * model call failing (`OFFLINE_MODEL_FAULTS=http500=1`), `/healthz` answers
 * 200 naming the provider that is down, and `/v1/query` streams a sparse
 * `retrieval-end` marked degraded, from the demo corpus a healthy start
 * loaded, and ends in `done`.
 */
import assert from "node:assert/strict";
import { readEvents } from "../routes/helpers.ts";
import { startService } from "./service.ts";

// `retrieval` sat at the top level until unknown fields were refused (#19): it was never read.
const QUERY = {
  query: "What is reciprocal rank fusion?",
  pipeline: { retrieval: { mode: "hybrid" } },
};

async function post(url: string, body: unknown): Promise<Response> {
  return await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
}

Deno.test("with http500=1 the server reports embeddings down and answers from BM25", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "sift-degrade-" });
  try {
    {
      // A healthy start loads the demo corpus into the data directory.
      await using healthy = await startService({ SIFT_DATA_DIR: dataDir });
      const search = await post(`${healthy.url}/v1/search`, { query: QUERY.query, top_k: 1 });
      assert.equal((await search.json()).results.length, 1);
    }
    await using failing = await startService({
      SIFT_DATA_DIR: dataDir,
      OFFLINE_MODEL_FAULTS: "http500=1",
      LLM_TIMEOUT_MS: "2000",
    });
    const health = await fetch(`${failing.url}/healthz`);
    assert.equal(health.status, 200);
    const body = await health.json();
    assert.equal(body.status, "degraded");
    assert.equal(body.checks.embeddings, "down");
    assert.equal(body.checks.llm, "down");

    const events = await readEvents(await post(`${failing.url}/v1/query`, QUERY));
    const retrieval = events.find((event) => event.event === "retrieval-end")?.data as
      | { degraded?: boolean; reason?: string; results: { doc_id: string }[] }
      | undefined;
    assert.ok(retrieval, events.map((event) => event.event).join(","));
    assert.equal(retrieval.degraded, true);
    assert.match(retrieval.reason ?? "", /sparse \(BM25\)/);
    assert.ok(retrieval.results.length > 0, "BM25 finds demo passages");
    assert.equal(events.at(-1)?.event, "done");
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

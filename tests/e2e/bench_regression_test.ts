/**
 * The benchmark's reduced run (1k chunks, and 5k chunks of dense vectors)
 * against the ratios of the last full run (`bench.json`, written by
 * `deno task bench`): a ratio more than twice
 * what it was, or than 1 where 1 is ideal, is a regression. Ratios, not
 * times: they compare two measurements taken in the same run.
 */
import assert from "node:assert/strict";
import { benchIndex } from "../../scripts/bench-index.ts";
import { benchDense } from "../../scripts/bench-dense.ts";
import type { BenchReport } from "../../scripts/bench.ts";

const DATASET = new URL("../../../shared/datasets/aragog", import.meta.url).pathname;
const BASELINE = new URL("../../bench.json", import.meta.url);

/** Ratios where 1 is ideal: a regression is more than twice the recorded one (or than 1). */
const RATIOS = ["ingest_last_over_first_tenth", "one_document_over_empty"] as const;

Deno.test("the embedded index at 1k chunks keeps the ratios of the last full benchmark", async () => {
  const baseline = JSON.parse(await Deno.readTextFile(BASELINE)) as BenchReport;
  const recorded = baseline.index.find((size) => size.chunks >= 1000 && size.chunks < 2000);
  assert.ok(recorded, "bench.json has no 1k row: run `deno task bench`");
  const [current] = await benchIndex([1000], DATASET);
  for (const ratio of RATIOS) {
    const limit = 2 * Math.max(recorded[ratio], 1);
    assert.ok(
      current![ratio] <= limit,
      `${ratio}: ${current![ratio].toFixed(2)} now, ${recorded[ratio].toFixed(2)} recorded`,
    );
  }
  // How long a search is held up by an ingest is a time, not a ratio: the benchmark reports it
  // (BENCHMARKS.md), since a loaded machine holds up anything.
  console.log(`search held up by an ingest: ${current!.search_held_up_ms} ms`);
});

Deno.test("dense 1,536-d vectors at 5k chunks keep recall@10 ≥ 0.95 and the full benchmark's ingest ratio", async () => {
  const baseline = JSON.parse(await Deno.readTextFile(BASELINE)) as BenchReport;
  const recorded = baseline.dense?.[0];
  assert.ok(recorded, "bench.json has no dense row: run `deno task bench`");
  const { index: [current] } = await benchDense([5000], DATASET, { peers: false });
  assert.ok(current!.recall_at_10 >= 0.95, `recall@10 ${current!.recall_at_10}`);
  const limit = 2 * Math.max(recorded.ingest_last_over_first_tenth, 1);
  assert.ok(
    current!.ingest_last_over_first_tenth <= limit,
    `steady: ${current!.ingest_last_over_first_tenth.toFixed(2)} now, ` +
      `${recorded.ingest_last_over_first_tenth.toFixed(2)} recorded`,
  );
});

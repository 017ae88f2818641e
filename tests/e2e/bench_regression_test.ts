/**
 * The benchmark's reduced run (1k chunks, and 5k chunks of dense vectors)
 * beside the last full run (`bench.json`, written by `deno task bench`).
 * Speed ratios are printed, not asserted: even a ratio of two measurements in
 * one run moves when the machine's load changes between them (a second suite
 * beside this one took `one_document_over_empty` from 0.6 to 2.1), so they
 * are judged in `deno task bench` on a quiet machine (BENCHMARKS.md). What
 * does not depend on speed is asserted: dense recall@10.
 */
import assert from "node:assert/strict";
import { benchIndex } from "../../scripts/bench-index.ts";
import { benchDense } from "../../scripts/bench-dense.ts";
import type { BenchReport } from "../../scripts/bench.ts";

const DATASET = new URL("../../../shared/datasets/aragog", import.meta.url).pathname;
const BASELINE = new URL("../../bench.json", import.meta.url);

/** Ratios where 1 is ideal, printed beside the recorded ones. */
const RATIOS = ["ingest_last_over_first_tenth", "one_document_over_empty"] as const;

function report(label: string, now: number, recorded: number | undefined) {
  const flag = recorded !== undefined && now > 2 * Math.max(recorded, 1) ? "  <- look" : "";
  console.log(`${label}: ${now.toFixed(2)} now, ${recorded?.toFixed(2) ?? "?"} recorded${flag}`);
}

Deno.test("the embedded index at 1k chunks: the reduced benchmark runs, and its ratios are printed beside the last full run's", async () => {
  const baseline = JSON.parse(await Deno.readTextFile(BASELINE)) as BenchReport;
  const recorded = baseline.index.find((size) => size.chunks >= 1000 && size.chunks < 2000);
  assert.ok(recorded, "bench.json has no 1k row: run `deno task bench`");
  const [current] = await benchIndex([1000], DATASET);
  assert.ok(current!.chunks >= 1000, `${current!.chunks} chunks indexed`);
  for (const ratio of RATIOS) report(ratio, current![ratio], recorded[ratio]);
  console.log(`search held up by an ingest: ${current!.search_held_up_ms} ms`);
});

Deno.test("dense 1,536-d vectors at 5k chunks keep recall@10 ≥ 0.95", async () => {
  const baseline = JSON.parse(await Deno.readTextFile(BASELINE)) as BenchReport;
  const recorded = baseline.dense?.[0];
  const { index: [current] } = await benchDense([5000], DATASET, { peers: false });
  assert.ok(current!.recall_at_10 >= 0.95, `recall@10 ${current!.recall_at_10}`);
  report(
    "dense ingest_last_over_first_tenth",
    current!.ingest_last_over_first_tenth,
    recorded?.ingest_last_over_first_tenth,
  );
});

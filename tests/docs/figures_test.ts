/**
 * Figures the docs quote from the benchmarks are the ones in `bench.json`:
 * each is recomputed here from the file, so a new bench run that moves one
 * fails until the page says what was measured (and when).
 */
import assert from "node:assert/strict";
import { z } from "zod";
import { ROOT } from "./commands.ts";

const searchSchema = z.object({ p50: z.number() });
const benchSchema = z.object({
  date: z.string(),
  notes: z.array(z.string()),
  index: z.array(z.object({
    chunks: z.number(),
    search_ms: z.object({ hybrid: searchSchema }),
  })),
  dense: z.array(z.object({
    chunks: z.number(),
    width: z.number(),
    search_ms: z.object({ dense: searchSchema, hybrid: searchSchema }),
    recall_at_10: z.number(),
    rss_mb: z.number(),
    storage_mb: z.number(),
    restart_first_search_ms: z.number(),
    ingest_chunks_per_second: z.number(),
  })),
  retrieval: z.array(z.object({
    mode: z.string(),
    hit_at_5: z.number(),
    mrr_at_5: z.number(),
    queries: z.number(),
  })),
  workers: z.array(z.object({ name: z.string(), config: z.string(), gzip_kib: z.number() })),
});

const bench = benchSchema.parse(JSON.parse(await Deno.readTextFile(`${ROOT}/bench.json`)));
const page = async (path: string) =>
  (await Deno.readTextFile(`${ROOT}/${path}`)).replace(/\s+/g, " ");
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** The row of `bench.dense` (1,536-d) nearest `chunks`. */
const dense = (chunks: number) => {
  const row = bench.dense.find((row) => row.width === 1536 && Math.abs(row.chunks - chunks) < 100);
  assert.ok(row, `bench.json has no dense row at ${chunks} chunks`);
  return row;
};
const gb = (mb: number, digits: number) => `${(mb / 1000).toFixed(digits)} GB`;
const ms = (value: number) => `${Math.round(value)} ms`;

Deno.test("docs/benchmarks.md's ARAGOG table is bench.json's", async () => {
  const text = await page("docs/benchmarks.md");
  assert.ok(bench.retrieval.length >= 4);
  for (const { mode, hit_at_5, mrr_at_5, queries } of bench.retrieval) {
    const cells = [
      mode,
      `${hit_at_5}/${queries} (${(hit_at_5 / queries).toFixed(3)})`,
      mrr_at_5.toFixed(3),
    ];
    assert.match(text, new RegExp(`\\| ${cells.map(escape).join(" +\\| ")} +\\|`), mode);
  }
  // The table's date is the run bench.json's notes give for retrieval quality.
  const date = /the run of (\d{4}-\d{2}-\d{2})/.exec(text)?.[1];
  assert.ok(date, "the page does not say which run the table is from");
  assert.ok(bench.notes.some((note) => note.includes("retrieval quality") && note.includes(date)));
});

Deno.test("docs/embedded-index.md's scale figures are bench.json's", async () => {
  const text = await page("docs/embedded-index.md");
  assert.match(text, new RegExp(`the run of ${bench.date}`));
  const hundredK = dense(100_000);
  const hashed = bench.index.find((row) => Math.abs(row.chunks - 100_000) < 100);
  assert.ok(hashed);
  for (
    const figure of [
      `${gb(hundredK.rss_mb, 2)} RSS`,
      `hybrid search p50 ${ms(hundredK.search_ms.hybrid.p50)}`,
      `in the same run: ${ms(hashed.search_ms.hybrid.p50)}`,
      `recall@10 ${hundredK.recall_at_10.toFixed(1)}`,
      `restart to first search ${(hundredK.restart_first_search_ms / 1000).toFixed(1)} s`,
    ]
  ) assert.ok(text.includes(figure), `100k: "${figure}" is not on the page`);
  const million = dense(1_000_000);
  for (
    const figure of [
      `${gb(million.rss_mb, 1)} RSS`,
      `${gb(million.storage_mb, 1)} on disk`,
      `dense search p50 ${ms(million.search_ms.dense.p50)} with recall@10 ${
        million.recall_at_10.toFixed(2)
      }`,
      `hybrid ${ms(million.search_ms.hybrid.p50)}`,
      `about ${Math.round(million.ingest_chunks_per_second / 10) * 10} chunks/s`,
      `${Math.round(million.restart_first_search_ms / 1000)} s to the first search`,
    ]
  ) assert.ok(text.includes(figure), `1M: "${figure}" is not on the page`);
});

Deno.test("docs/deployment.md's Worker sizes are bench.json's", async () => {
  const text = await page("docs/deployment.md");
  const functions = bench.workers.filter((worker) =>
    /^functions\//.test(worker.config) && worker.name !== "sift"
  );
  assert.ok(functions.length >= 7);
  const sizes = functions.map((worker) => worker.gzip_kib);
  const range = `${Math.floor(Math.min(...sizes))}-${Math.ceil(Math.max(...sizes))} KiB`;
  const size = (name: string) =>
    `${Math.round(bench.workers.find((worker) => worker.name === name)!.gzip_kib)} KiB`;
  for (const figure of [range, `sift\` ${size("sift")}`, `Worker ${size("sift-all-in-one")}`]) {
    assert.ok(text.includes(figure), `"${figure}" is not on the page`);
  }
  assert.match(text, new RegExp(`bench run of ${bench.date}`));
});

Deno.test("the README's scale claim is one bench.json measured", async () => {
  const text = await page("README.md");
  assert.match(text, /holds a million chunks on one machine/);
  assert.ok(bench.dense.some((row) => row.chunks >= 1_000_000 && row.recall_at_10 >= 0.95));
});

/**
 * Figures the docs quote from the benchmarks are the ones in `bench.json`:
 * each is recomputed here from the file, so a new bench run that moves one
 * fails until the page says what was measured (and when).
 */
import assert from "node:assert/strict";
import { z } from "zod";
import { ROOT } from "./commands.ts";
import { workersSection } from "../../scripts/workers-table.ts";
import { PARSING_CONFIGS } from "../../scripts/workers.ts";

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
  workers: z.array(z.object({
    name: z.string(),
    config: z.string(),
    gzip_kib: z.number(),
    parses_files: z.boolean(),
    startup_ms: z.number(),
  })),
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

/** The figures docs/deployment.md quotes, from bench.json's Worker rows. */
export function deploymentFigures(workers: typeof bench.workers) {
  const row = (name: string) => {
    const found = workers.find((worker) => worker.name === name);
    assert.ok(found, `bench.json has no Worker ${name}`);
    return found;
  };
  const kib = (name: string) => `${Math.round(row(name).gzip_kib)} KiB`;
  const plain = workers.filter((worker) =>
    worker.config.startsWith("functions/") && worker.name !== "sift" && !worker.parses_files
  ).map((worker) => worker.gzip_kib);
  assert.ok(plain.length >= 6);
  const slowest = Math.max(...workers.map((worker) => worker.startup_ms));
  return [
    `the function Workers that parse no files were ${Math.floor(Math.min(...plain))}-${
      Math.ceil(Math.max(...plain))
    } KiB`,
    `the orchestrator \`sift\` ${kib("sift")}`,
    `the state Worker ${kib("sift-state")}`,
    `\`sift-embed\` ${kib("sift-embed")}`,
    `the all-in-one Worker ${kib("sift-all-in-one")}`,
    `The slowest start was ${Math.round(slowest)} ms of CPU`,
  ];
}

Deno.test("docs/deployment.md's Worker sizes and start-up are bench.json's", async () => {
  const text = await page("docs/deployment.md");
  for (const figure of deploymentFigures(bench.workers)) {
    assert.ok(text.includes(figure), `"${figure}" is not on the page`);
  }
  assert.match(text, new RegExp(`bench run of ${bench.date}`));
});

Deno.test("BENCHMARKS.md's Worker table is workers:check's rows in bench.json", async () => {
  const text = await Deno.readTextFile(`${ROOT}/BENCHMARKS.md`);
  assert.ok(text.includes(workersSection(bench.workers)), "run deno task bench --render");
});

Deno.test("every Worker that parses no files is under 1 MiB compressed; the others under 3 MiB", () => {
  for (const worker of bench.workers) {
    const limit = worker.parses_files ? 3 * 1024 : 1024;
    assert.ok(worker.gzip_kib < limit, `${worker.name}: ${worker.gzip_kib} KiB`);
    assert.equal(worker.parses_files, PARSING_CONFIGS.includes(worker.config), worker.name);
  }
  assert.deepEqual(
    bench.workers.filter((worker) => worker.parses_files).map((worker) => worker.name).sort(),
    ["sift-all-in-one", "sift-embed"],
  );
});

Deno.test("the docs state Cloudflare's Worker size limits one way: 3 MiB free, 10 MiB paid", async () => {
  const pages = ["README.md", "BENCHMARKS.md"];
  for await (const entry of Deno.readDir(`${ROOT}/docs`)) pages.push(`docs/${entry.name}`);
  const limits = "3 MiB compressed on the free plan and 10 MiB on the paid plan";
  for (const path of pages) {
    const text = await page(path);
    // A size limit on a Worker is said in one way; 1 MiB is sift's own budget, not Cloudflare's.
    assert.doesNotMatch(text, /(1|5) MiB (limit|gzipped\))|limit is 1 MiB|against the 1 MiB/, path);
    if (/Cloudflare('s)? limit/i.test(text)) assert.ok(text.includes(limits), `${path}: ${limits}`);
  }
  for (const path of ["docs/deployment.md", "docs/documents.md", "BENCHMARKS.md"]) {
    assert.ok((await page(path)).includes(limits), `${path} does not state the limits`);
  }
});

Deno.test("the README's scale claim is one bench.json measured", async () => {
  const text = await page("README.md");
  assert.match(text, /holds a million chunks on one machine/);
  assert.ok(bench.dense.some((row) => row.chunks >= 1_000_000 && row.recall_at_10 >= 0.95));
});

/**
 * The bulk build (#30: a million chunks in at most 10 minutes on 2 cores).
 * Writes the bench's chunks as a `.jsonl` in a temporary directory (ARAGOG
 * text cut by `makeDocuments`, 250 words a line, and each line's 1,536-d
 * `vector` from `denseEmbedder`, as base64 float32), then in one run times:
 *
 * - **bulk**: `deno task ingest --bulk`'s own path (`bulkIngest`: workers
 *   parse and analyze, a fsynced log record per ~40 MB of lines, one checkpoint),
 *   over all of it;
 * - **per record**: the path before, on the first `--baseline` lines of the
 *   same file: read and parsed here (timed too), `EmbeddedIndex.upsert` 1,000 chunks a record
 *   (analysis on this thread, checkpoints as they fall due, one at the end),
 *   what `scripts/bench-restart.ts`'s `build` and the HTTP ingest do minus
 *   the chunker and the model.
 *
 * Vectors come with the file so the index's own cost is measured apart from a
 * model's (a real provider takes far longer than 10 minutes for a million).
 *
 *   deno run -A scripts/bench-bulk.ts [--chunks 100000] [--baseline 20000] [--workers n]
 *
 * 2026-11-26, 2 cores shared with other work (load 2-3): `--chunks 1000000 --baseline 20000`
 * took 415 s for the million (all durable at 369 s, then the 5.6 GB checkpoint), 2,407 chunks/s,
 * ×1.76 the per-record path's 1,365 chunks/s at 20k; `--chunks 100000 --baseline 100000`: 2,207
 * against 985 chunks/s, ×2.24.
 */
import { parseArgs } from "node:util";
import { denseEmbedder } from "./dense-embeddings.ts";
import { makeDocuments, rssMb } from "./bench-index.ts";
import { readDataset } from "./retrieval-eval.ts";
import { float32Base64 } from "../shared/embeddings/base64.ts";
import { bulkIngest } from "./bulk-ingest.ts";
import { EmbeddedIndex, FileIndexLog, type IndexedChunk } from "../lib/vector-index/deno/mod.ts";

export type BulkReport = {
  chunks: number;
  workers: number;
  jsonl_gb: number;
  generate_s: number;
  bulk_s: number;
  bulk_chunks_per_s: number;
  /** The bulk build's time for a million at its rate here (the issue's target: ≤ 600 s). */
  bulk_1m_estimate_s: number;
  checkpoint_gb: number;
  rss_after_mb: number;
  baseline_chunks: number;
  baseline_s: number;
  baseline_chunks_per_s: number;
  /** Bulk chunks/s over per-record chunks/s, measured in the same run. */
  speedup: number;
};

const ROOT = new URL("../", import.meta.url).pathname;
const encoder = new TextEncoder();

/** `count` lines of the bench's documents with their vectors, written in batches. */
async function writeJsonl(path: string, count: number, words: string[]): Promise<void> {
  const embed = denseEmbedder();
  const next = makeDocuments(words, 11);
  using file = await Deno.open(path, { create: true, write: true, truncate: true });
  for (let written = 0; written < count;) {
    const batch = next(Math.min(2000, count - written));
    const text = batch.map((document) =>
      JSON.stringify({
        ...document,
        vector: float32Base64(embed(`${document.title}\n${document.text}`)),
      })
    ).join("\n") + "\n";
    const bytes = encoder.encode(text);
    for (let at = 0; at < bytes.length;) at += await file.write(bytes.subarray(at));
    written += batch.length;
  }
}

/** The first `count` lines of `path` as chunks, the way a server would hold them. */
async function readChunks(path: string, count: number): Promise<IndexedChunk[]> {
  const chunks: IndexedChunk[] = [];
  const lines: string[] = [];
  const file = await Deno.open(path, { read: true });
  let rest = "";
  // Read up to the `count`th line only: the whole file is more than a string can hold.
  for await (const text of file.readable.pipeThrough(new TextDecoderStream())) {
    const parts = (rest + text).split("\n");
    rest = parts.pop()!;
    lines.push(...parts.slice(0, count - lines.length));
    if (lines.length >= count) break;
  }
  const ingestedAt = new Date().toISOString();
  for (const line of lines) {
    const { id, title, text, vector } = JSON.parse(line);
    const bytes = Uint8Array.fromBase64(vector);
    chunks.push({
      id: `${id}#0`,
      text,
      vector: Array.from(new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4)),
      metadata: { doc_id: id, title, ingested_at: ingestedAt, chunk_index: 0 },
    });
  }
  return chunks;
}

/** The path before: records of 1,000 chunks, analyzed on this thread, checkpoints as due. */
async function perRecord(chunks: IndexedChunk[], dataDir: string): Promise<number> {
  const log = new FileIndexLog(`${dataDir}/index.log`);
  const index = new EmbeddedIndex({ log });
  const started = performance.now();
  for (let at = 0; at < chunks.length; at += 1000) {
    await index.upsert(chunks.slice(at, at + 1000), { namespace: "default" });
  }
  await index.flush();
  log.close();
  return (performance.now() - started) / 1000;
}

export async function benchBulk(
  options: { chunks: number; baseline: number; workers?: number; datasetDir: string },
): Promise<BulkReport> {
  const { documents } = await readDataset(options.datasetDir);
  const words = documents.map((document) => document.text).join(" ").split(/\s+/);
  const dir = await Deno.makeTempDir({ prefix: "sift-bench-bulk-" });
  try {
    const jsonl = `${dir}/chunks.jsonl`;
    let started = performance.now();
    await writeJsonl(jsonl, Math.max(options.chunks, options.baseline), words);
    const generate = (performance.now() - started) / 1000;
    console.error(`bulk: wrote ${options.chunks} lines in ${generate.toFixed(0)} s`);
    const workers = options.workers ?? navigator.hardwareConcurrency ?? 2;
    // The smaller run first: the machine's memory is the fuller run's afterwards.
    // Reading and parsing the lines counts, as it does for the bulk path.
    started = performance.now();
    const baselineChunks = await readChunks(jsonl, options.baseline);
    const read = (performance.now() - started) / 1000;
    const baseline = read + await perRecord(baselineChunks, await Deno.makeTempDir({ dir }));
    baselineChunks.length = 0;
    console.error(`bulk: per record, ${options.baseline} chunks in ${baseline.toFixed(1)} s`);
    const bulkDir = `${dir}/bulk`;
    let lastLine = 0;
    started = performance.now();
    const bulk = await bulkIngest({
      files: [jsonl],
      dataDir: bulkDir,
      namespace: "default",
      workers,
      onProgress: (progress) => {
        if (progress.lines - lastLine >= 100_000 || progress.bytes === progress.fileBytes) {
          lastLine = progress.lines;
          console.error(
            `bulk: ${progress.lines} lines durable at ${(progress.elapsedMs / 1000).toFixed(0)} s`,
          );
        }
      },
    });
    const bulkSeconds = (performance.now() - started) / 1000;
    const bulkRate = bulk.chunks / bulkSeconds;
    const baselineRate = options.baseline / baseline;
    return {
      chunks: bulk.chunks,
      workers,
      jsonl_gb: Deno.statSync(jsonl).size / 1e9,
      generate_s: generate,
      bulk_s: bulkSeconds,
      bulk_chunks_per_s: bulkRate,
      bulk_1m_estimate_s: 1e6 / bulkRate,
      checkpoint_gb: Deno.statSync(`${bulkDir}/index.ckpt`).size / 1e9,
      rss_after_mb: rssMb(Deno.pid),
      baseline_chunks: options.baseline,
      baseline_s: baseline,
      baseline_chunks_per_s: baselineRate,
      speedup: bulkRate / baselineRate,
    };
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

/** BENCHMARKS.md's section for `bench.json`'s `bulk`. */
export function renderBulk(row: BulkReport | undefined, note?: string): string {
  if (!row) return "";
  const rate = (value: number) => value.toFixed(0);
  return `
## Bulk build (\`deno task ingest --bulk\`)

\`deno run -A scripts/bench-bulk.ts --chunks ${row.chunks} --baseline ${row.baseline_chunks}\` (#30:
a million chunks in at most 10 minutes on 2 cores): the bench's chunks as a \`.jsonl\` (ARAGOG text,
250 words a line, each line's 1,536-d vector as base64 float32, so the index's cost is measured
apart from a model's), ingested by the bulk path (${row.workers} workers parse and analyze, one
fsynced log record per ~40 MB of lines, one checkpoint at the end), and beside it in the same run the
path before on the first ${row.baseline_chunks.toLocaleString("en")} lines (read and parsed, then
records of 1,000 chunks analyzed on the main thread, checkpoints as they fall due).${
    note ? `\n\n${note}` : ""
  }

| chunks | .jsonl | bulk | bulk chunks/s | 1M at that rate | checkpoint | RSS after | per record chunks/s | × per record |
|---|---|---|---|---|---|---|---|---|
| ${row.chunks.toLocaleString("en")} | ${row.jsonl_gb.toFixed(1)} GB | ${
    row.bulk_s.toFixed(0)
  } s | ${rate(row.bulk_chunks_per_s)} | ${(row.bulk_1m_estimate_s / 60).toFixed(1)} min | ${
    row.checkpoint_gb.toFixed(2)
  } GB | ${rate(row.rss_after_mb)} MB | ${rate(row.baseline_chunks_per_s)} | ×${
    row.speedup.toFixed(2)
  } |
`;
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      chunks: { type: "string", default: "100000" },
      baseline: { type: "string", default: "20000" },
      workers: { type: "string" },
    },
  });
  const report = await benchBulk({
    chunks: Number(values.chunks),
    baseline: Number(values.baseline),
    ...(values.workers ? { workers: Number(values.workers) } : {}),
    datasetDir: `${ROOT}../shared/datasets/aragog`,
  });
  console.log(JSON.stringify(report, null, 2));
}

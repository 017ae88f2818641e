/**
 * The benchmark that tracks the embedded index, in one run on this machine:
 * the index at growing sizes through the real server (bench-index.ts) and
 * retrieval quality on ARAGOG against a plain BM25 baseline. Writes
 * `BENCHMARKS.md` (for people) and `bench.json` (for the CI regression check).
 *
 *   deno task bench                         # 1k, 10k, 50k and 100k chunks; dense 10k, 100k, 1M
 *   deno task bench --sizes 1000,10000      # fewer (and --peer-sizes 1000 for the peer)
 *   deno task bench --dense-sizes 10000     # dense rows (--dense-width 512 for narrower vectors)
 *   deno task bench --only growth,sparse    # 30k → 300k dense growth, BM25 alone at 1M docs
 *   deno task bench --only growth --growth-sizes 30000,100000,300000,1000000   # growth to 1M
 *   deno task bench --out /tmp/bench        # somewhere else than the project root
 *   deno task bench --render                # BENCHMARKS.md again from bench.json
 *   deno task bench --only widths,state     # some sections again, into the bench.json there
 *   deno task bench --only load,http --load-runtimes deno   # Deno's load rows (workerd's kept)
 *   deno task bench --only postgres --postgres-sizes 10000   # the index in Postgres (pglite-server)
 *   deno task bench --only restart          # restart to first search at 30k, 100k, 300k (#30)
 *   deno task bench --only restart-http     # the same after HTTP ingest, one data dir grown (#44)
 *   deno task bench --only bulk             # ingest --bulk of 1M chunks beside per-record (#30)
 */
import { createSiftApp } from "../app.ts";
import { readConfig } from "../shared/config.ts";
import { benchIndex, type SizeReport } from "./bench-index.ts";
import { benchPeers, type PeerRow } from "./bench-peer.ts";
import { benchDense, type DensePeerRow, type DenseSizeReport } from "./bench-dense.ts";
import type { StateCapacity } from "./bench-state-capacity.ts";
import { benchKernel, type KernelRow } from "../lib/vector-index/bench/kernel.ts";
import { benchSparse, type SparseRow } from "../lib/vector-index/bench/sparse.ts";
import { growthRatios, type GrowthReport } from "./bench-growth.ts";
import { benchLoad, type LoadRow } from "./bench-load.ts";
import { benchHttp, type HttpReport, httpTable } from "./bench-http.ts";
import { benchPipeline, type PipelineRow } from "./bench-pipeline.ts";
import { benchPostgres, type PostgresBench, postgresSection } from "./bench-postgres.ts";
import { type PostgresServerBench, postgresServerSection } from "./bench-postgres-server-table.ts";
import { type WorkerSize, workerSizes } from "./workers.ts";
import { workersSection } from "./workers-table.ts";
import { type Command, commandArgs } from "../cli/cli.ts";
import type { FlagValues } from "../cli/flags.ts";
import { benchRestart, renderRestart, type RestartReport } from "./bench-restart.ts";
import {
  benchRestartHttp,
  type HttpRestartReport,
  renderRestartHttp,
} from "./bench-restart-http.ts";
import { benchBulk, type BulkReport, renderBulk } from "./bench-bulk.ts";
import { batchDocuments } from "./documents.ts";
import {
  type ChunkerScore,
  chunkerScores,
  chunkerSweep,
  chunkerTable,
  type SweepRow,
  sweepTable,
} from "./chunking-eval.ts";
import {
  type ModeScore,
  postInProcess,
  readDataset,
  retrievalScores,
  scoreTable,
} from "./retrieval-eval.ts";

const DATASET = new URL("../../shared/datasets/aragog", import.meta.url).pathname;

const SECTIONS = [
  "index",
  "dense",
  "growth",
  "sparse",
  "widths",
  "kernel",
  "peers",
  "retrieval",
  "chunking",
  "pipeline",
  "load",
  "http",
  "workers",
  "postgres",
  "restart",
  "restart-http",
  "bulk",
] as const;

const COMMAND = {
  usage: "deno task bench [options]",
  about:
    `The benchmark that tracks the embedded index, in one run on this machine: writes bench.json
(for the CI regression check) and BENCHMARKS.md (for people) into --out. It takes hours at the
default sizes; --only runs some sections again into the bench.json already there.`,
  flags: {
    sizes: {
      type: "string",
      value: "N,N",
      help: "index sizes in chunks",
      default: "1000,10000,50000,100000",
    },
    "peer-sizes": {
      type: "string",
      value: "N,N",
      help: "sizes for the peer engines",
      default: "1000,10000,50000",
    },
    "dense-sizes": {
      type: "string",
      value: "N,N",
      help: "dense index sizes",
      default: "10000,100000,1000000",
    },
    "growth-sizes": {
      type: "string",
      value: "N,N",
      help: "growth section sizes (add 1000000 for the million)",
      default: "30000,100000,300000",
    },
    "growth-build": {
      type: "string",
      value: "http|bulk",
      help: "how the growth section's chunks go in: POST /v1/documents, or deno task ingest --bulk",
      default: "http",
    },
    "sparse-docs": {
      type: "string",
      value: "N",
      help: "documents in the BM25-alone section",
      default: "1000000",
    },
    "load-runtimes": {
      type: "string",
      value: "deno,workerd",
      help: "runtimes whose load rows are measured again (the others are kept)",
      default: "deno,workerd",
    },
    "postgres-sizes": {
      type: "string",
      value: "N,N",
      help: "chunks for the Postgres speed rows (a local pglite-server)",
      default: "10000,100000",
    },
    "restart-sizes": {
      type: "string",
      value: "N,N",
      help: "sizes for restart to first search",
      default: "30000,100000,300000",
    },
    "restart-http-sizes": {
      type: "string",
      value: "N,N",
      help: "sizes for restart after HTTP ingest (one data directory grown through them)",
      default: "30000,100000,300000",
    },
    "bulk-chunks": {
      type: "string",
      value: "N",
      help: "chunks for the bulk build (its per-record baseline: 20,000)",
      default: "1000000",
    },
    "dense-width": { type: "string", value: "N", help: "dense vector width", default: "1536" },
    out: {
      type: "string",
      value: "DIR",
      help: "where bench.json goes",
      default: "the project root",
    },
    only: {
      type: "string",
      help: "these sections only",
      choices: SECTIONS,
      list: true,
      value: `${SECTIONS.join(",")}`,
      default: "all",
    },
    render: {
      type: "boolean",
      help: "write BENCHMARKS.md again from --out's bench.json, measure nothing",
    },
  },
} satisfies Command;

/** The parsed command line (set when run as the command; empty when imported). */
let flags: FlagValues<typeof COMMAND.flags> = {};

function flag(name: Exclude<keyof typeof COMMAND.flags, "render">): string | undefined {
  return flags[name];
}

export type BenchReport = {
  date: string;
  /** What a reader should know of how this file's rows were measured (runs merged, load). */
  notes?: string[];
  machine: { cores: number; deno: string };
  index: SizeReport[];
  dense: DenseSizeReport[];
  dense_peers: DensePeerRow[];
  /** One growing index of 1,536-d vectors (30k → 300k, or 1M), and each size over the first. */
  growth?: GrowthReport;
  /** The same section grown through `deno task ingest --bulk` (`--growth-build bulk`). */
  growth_bulk?: GrowthReport;
  /** BM25 alone on issue #30's Zipf corpus: pruned against the exhaustive scoring it replaced. */
  sparse?: SparseRow;
  /** Dense search per `EMBEDDING_DIMENSIONS`, and what the Durable Object holds at that width. */
  dense_widths: (DenseSizeReport & { state: StateCapacity })[];
  kernel: KernelRow[];
  peers: PeerRow[];
  retrieval: ModeScore[];
  /** Token windows (before #22) beside the structure-following chunker, same run. */
  chunking?: ChunkerScore[];
  /** Both chunkers, hybrid, at several chunk sizes. */
  chunking_sweep?: SweepRow[];
  pipeline: PipelineRow[];
  load: LoadRow[];
  /** sift's HTTP server beside a trivial `Deno.serve` handler (bench-http.ts). */
  http?: HttpReport;
  workers: WorkerSize[];
  /** The index in Postgres (a local pglite-server) beside the embedded one. */
  postgres?: PostgresBench;
  /** `deno task bench:postgres --record`: a native Postgres beside the embedded index. */
  postgres_server?: PostgresServerBench;
  /** Restart to first search at growing sizes, in one run (`--restart-sizes`). */
  restart?: RestartReport[];
  /** When and where the restart section was measured, if not with the rest. */
  restart_note?: string;
  /** Restart after one-chunk documents through HTTP, one directory grown (`--restart-http-sizes`). */
  restart_http?: HttpRestartReport[];
  restart_http_note?: string;
  /** `ingest --bulk` beside per-record upserts, in one run (`--bulk-chunks`). */
  bulk?: BulkReport;
  bulk_note?: string;
};

/** `--growth-sizes` (30k, 100k, 300k by default; add 1000000 for the million). */
async function growthRows(): Promise<GrowthReport> {
  const sizes = (flag("growth-sizes") ?? "30000,100000,300000").split(",").filter(Boolean)
    .map(Number);
  const build = flag("growth-build") ?? "http";
  if (build !== "http" && build !== "bulk") {
    throw new Error(`--growth-build: must be http or bulk, not ${build}`);
  }
  const { index } = await benchDense(sizes, DATASET, { peers: false, build });
  return { sizes: index, ratios: growthRatios(index) };
}

async function denseRows(): Promise<Pick<BenchReport, "dense" | "dense_peers">> {
  const sizes = (flag("dense-sizes") ?? "10000,100000,1000000").split(",").filter(Boolean)
    .map(Number);
  if (sizes.length === 0) return { dense: [], dense_peers: [] };
  const width = flag("dense-width");
  const { index, peers } = await benchDense(sizes, DATASET, width ? { width: Number(width) } : {});
  return { dense: index, dense_peers: peers };
}

const WIDTHS = [256, 512, 1024, 1536];

/** The same dense path at 20k chunks per width, and the Durable Object's capacity per width. */
async function widthRows(): Promise<BenchReport["dense_widths"]> {
  const rows: BenchReport["dense_widths"] = [];
  for (const width of WIDTHS) {
    const { index: [row] } = await benchDense([20_000], DATASET, { width, peers: false });
    rows.push({ ...row!, state: await stateCapacity(width) });
  }
  return rows;
}

/** In a process of its own: the measurement needs `gc()` and a heap nothing else has touched. */
async function stateCapacity(width: number): Promise<StateCapacity> {
  const { stdout, success } = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--v8-flags=--expose-gc",
      new URL("./bench-state-capacity.ts", import.meta.url).pathname,
      String(width),
    ],
    stderr: "inherit",
  }).output();
  if (!success) throw new Error("bench-state-capacity failed");
  return JSON.parse(new TextDecoder().decode(stdout));
}

async function aragogQuality(): Promise<ModeScore[]> {
  const env = { DEMO_CORPUS: "false" };
  const app = createSiftApp();
  const post = postInProcess(app, env);
  const dataset = await readDataset(DATASET);
  for (const batch of batchDocuments(dataset.documents)) {
    await post("/v1/documents", { documents: batch, namespace: "bench" });
  }
  return await retrievalScores(post, dataset, readConfig(env).chunking, "bench");
}

/** Chunk sizes the chunkers are compared at beside the configured one. */
const SWEEP_SIZES = [300, 350, 400, 450, 500];

async function chunkingRows(): Promise<Pick<BenchReport, "chunking" | "chunking_sweep">> {
  const dataset = await readDataset(DATASET);
  const { chunking } = readConfig({});
  return {
    chunking: await chunkerScores(dataset, chunking),
    chunking_sweep: await chunkerSweep(dataset, SWEEP_SIZES, chunking.overlap),
  };
}

const ms = (value: number) => value < 10 ? value.toFixed(1) : Math.round(value).toString();

export function renderMarkdown(report: BenchReport): string {
  const rows = report.index.map((size) =>
    `| ${size.chunks.toLocaleString("en")} | ${Math.round(size.ingest_chunks_per_second)} | ${
      size.ingest_last_over_first_tenth.toFixed(2)
    } | ${ms(size.one_document_ingest_ms)} ms (×${size.one_document_over_empty.toFixed(2)}) | ${
      (["dense", "sparse", "hybrid"] as const).map((mode) =>
        `${ms(size.search_ms[mode].p50)} / ${ms(size.search_ms[mode].p95)}`
      ).join(" | ")
    } | ${ms(size.search_held_up_ms)} ms | ${Math.round(size.rss_mb)} MB | ${
      size.storage_mb.toFixed(1)
    } MB | ${ms(size.restart_first_search_ms)} ms |`
  );
  const peerRows = report.peers.map((row) =>
    `| ${row.engine} | ${row.chunks.toLocaleString("en")} | ${
      Math.round(row.insert_per_second)
    } | ${
      (["dense", "sparse", "hybrid"] as const).map((mode) => `${ms(row.search_p50_ms[mode])} ms`)
        .join(" | ")
    } | ${Math.round(row.heap_mb)} MB |`
  );
  const pipelineRows = report.pipeline.map((row) =>
    `| ${row.strategy} | ${ms(row.total_ms)} ms | ${ms(row.sequential_ms)} ms (×${
      row.speedup.toFixed(2)
    }) | ${ms(row.first_token_ms)} ms (+${
      ms(row.first_token_overhead_ms)
    } ms) | ${row.tokens_in} (×${
      row.tokens_over_relevance.toFixed(2)
    }) | ${row.repeated_tokens_in} |`
  );
  const loadRows = report.load.map((row) =>
    `| ${row.runtime} | \`${row.route}\` | ${Math.round(row.requests_per_second)} | ${
      row.cpu_ms_per_request.toFixed(2)
    } ms | ${ms(row.p50_ms)} ms |`
  );
  const hashedHybrid = (chunks: number) =>
    report.index.find((size) => Math.abs(size.chunks - chunks) / chunks < 0.05)?.search_ms.hybrid
      .p50;
  const denseRows = (report.dense ?? []).map((size) => {
    const hashed = hashedHybrid(size.chunks);
    return `| ${size.chunks.toLocaleString("en")}${size.heap_mb ? "*" : ""} | ${size.width} | ${
      Math.round(size.ingest_chunks_per_second)
    } | ${size.ingest_last_over_first_tenth.toFixed(2)} | ${
      (["dense", "hybrid"] as const).map((mode) =>
        `${ms(size.search_ms[mode].p50)} / ${ms(size.search_ms[mode].p95)}`
      ).join(" | ")
    } | ${hashed ? `×${(size.search_ms.hybrid.p50 / hashed).toFixed(2)}` : "—"} | ${
      size.recall_at_10.toFixed(3)
    } | ${Math.round(size.rss_mb)} MB | ${size.storage_mb.toFixed(0)} MB | ${
      ms(size.restart_first_search_ms)
    } ms |`;
  });
  const densePeerRows = (report.dense_peers ?? []).map((row) => {
    const sift = (report.dense_peers ?? []).find((other) =>
      other.engine === "sift" && other.chunks === row.chunks
    );
    return `| ${row.engine} | ${row.chunks.toLocaleString("en")} | ${
      row.insert_per_second === null ? "—" : Math.round(row.insert_per_second)
    } | ${ms(row.dense_p50_ms)} ms | ${
      sift ? `×${(row.dense_p50_ms / sift.dense_p50_ms).toFixed(2)}` : "—"
    } | ${row.recall_at_10.toFixed(3)} | ${Math.round(row.memory_mb)} MB |`;
  });
  const widthRows = (report.dense_widths ?? []).map((row) =>
    `| ${row.width} | ${ms(row.search_ms.dense.p50)} / ${ms(row.search_ms.dense.p95)} | ${
      ms(row.search_ms.hybrid.p50)
    } / ${ms(row.search_ms.hybrid.p95)} | ${row.recall_at_10.toFixed(3)} | ${
      Math.round(row.rss_mb)
    } MB | ${row.storage_mb.toFixed(0)} MB | ${
      (row.state.bytes_per_chunk / 1024).toFixed(1)
    } KB | ${row.state.chunks_under_128_mb.toLocaleString("en")} |`
  );
  const growthRowsOf = (growth: GrowthReport | undefined) =>
    (growth?.sizes ?? []).map((size) =>
      `| ${size.chunks.toLocaleString("en")}${size.heap_mb ? "*" : ""} | ${
        (["dense", "hybrid"] as const).map((mode) =>
          `${ms(size.search_ms[mode].p50)} / ${ms(size.search_ms[mode].p95)}`
        ).join(" | ")
      } | ${size.recall_at_10.toFixed(3)} | ${Math.round(size.rss_mb)} MB | ${
        ms(size.restart_first_search_ms)
      } ms${size.after_restart?.warm_ms ? ` (warm ${ms(size.after_restart.warm_ms)} ms)` : ""} | ${
        size.after_restart
          ? `${ms(size.after_restart.search_ms.dense.p50)} / ${
            ms(size.after_restart.search_ms.hybrid.p50)
          } ms | ${Math.round(size.after_restart.rss_mb)} MB`
          : "— | —"
      } | ${Math.round(size.ingest_chunks_per_second)} (${size.build ?? "http"}) |`
    );
  const growthRows = growthRowsOf(report.growth);
  const bulkRows = growthRowsOf(report.growth_bulk);
  const ratioRowsOf = (growth: GrowthReport | undefined) =>
    (growth?.ratios ?? []).map((ratio) =>
      `| ${ratio.from.toLocaleString("en")} → ${ratio.to.toLocaleString("en")} | ×${
        ratio.dense_p50.toFixed(2)
      } | ×${ratio.hybrid_p50.toFixed(2)} | ×${ratio.restart_first_search.toFixed(2)} |`
    );
  const ratioRows = ratioRowsOf(report.growth);
  const bulkRatioRows = ratioRowsOf(report.growth_bulk);
  const sparse = report.sparse;
  const sparseRow = sparse
    ? `| ${sparse.docs.toLocaleString("en")} | ${ms(sparse.exhaustive_ms.p50)} / ${
      ms(sparse.exhaustive_ms.p95)
    } ms | ${ms(sparse.pruned_ms.p50)} / ${ms(sparse.pruned_ms.p95)} ms | ×${
      sparse.speedup_p50.toFixed(1)
    } | ${sparse.same_top_10}/${sparse.queries} | ${sparse.pruned_queries}/${sparse.queries} |`
    : "";
  const kernelRows = (report.kernel ?? []).map((row) =>
    `| ${row.operation} | ${row.rows.toLocaleString("en")} | ${ms(row.wasm_ms)} ms | ${
      ms(row.js_ms)
    } ms | ×${(row.js_ms / row.wasm_ms).toFixed(1)} |`
  );
  return `# Benchmarks

Written by \`deno task bench\` on ${report.date} (${report.machine.cores} cores, Deno ${report.machine.deno}).
Numbers are from one run on one machine: compare rows and ratios, not absolute times across machines.
${(report.notes ?? []).map((note) => `\n- ${note}`).join("")}

## The embedded index through the real server

\`main.ts\` in its own process, chunks ingested through \`POST /v1/documents\` in batches of 100
one-chunk documents cut from the ARAGOG papers, the offline model's hashed embedding (2048 wide).

- **steady**: mean batch time of the last tenth of the batches over the first tenth (1 = no slow-down).
- **one document**: median ingest of one document at that size (× the same into an empty index).
- **search**: p50 / p95 of \`POST /v1/search\` (top 10) over 40 ARAGOG questions, per mode.
- **held up**: the worst extra wait of a hybrid search while a document is being ingested.
- **on disk**: the checkpoint and the log since it.
- **restart**: stop the server, start it, answer a first hybrid search.

| chunks | ingest chunks/s | steady | one document | dense ms | sparse ms | hybrid ms | held up | RSS | on disk | restart |
|---|---|---|---|---|---|---|---|---|---|---|
${rows.join("\n")}

## The embedded index on a real model's vectors

The same server and path, with \`LLM_BASE_URL\` pointing at an OpenAI-compatible embeddings server
inside the bench that returns deterministic 1,536-wide unit vectors clustered like a real model's
(every dimension nonzero; \`scripts/dense-embeddings.ts\`), so ingest goes through the openai client
as with a real provider. Dense namespaces keep int8 rows, their int8 residuals and, past 8,192 rows,
a bit code per row (\`lib/vector-index/dense-vectors.ts\`).

- **× hashed**: hybrid p50 over the hashed-vector row of the same size in this run.
- **recall@10**: dense top 10 against an exact float32 search over the same vectors (40 queries).
- **restart**: stop the server, start it, answer a first hybrid search.
- **\\***: the server ran with a 4 GiB V8 heap instead of the start task's 1 GiB, as docs/embedded-index.md
  advises past 250k chunks (ids and metadata take about 0.8 KB of heap per chunk).

| chunks | width | ingest chunks/s | steady | dense ms | hybrid ms | × hashed | recall@10 | RSS | on disk | restart |
|---|---|---|---|---|---|---|---|---|---|---|
${denseRows.join("\n")}

The same vectors beside a peer, in the bench's process: **usearch** 2.26 (native HNSW, float16,
connectivity 16, expansion 128 on add and 64 on search, added with 2 threads, searched with 1)
and a plain **exact scan** (usearch's \`exactSearch\`, float32, native SIMD, all cores), which is
also the recall's ground truth. sift's time is through the server (HTTP, JSON, the query's
embedding from the cache); the peers' are in-process calls. **× sift**: p50 over sift's. Memory:
sift's server RSS, usearch's saved index, the float32 vectors the exact scan reads.

| engine | chunks | inserts/s | dense p50 | × sift | recall@10 | memory |
|---|---|---|---|---|---|---|
${densePeerRows.join("\n")}

## Growth in one run

One index of the 1,536-d vectors above growing through the server, measured at each size in the
same run (\`deno task bench --only growth\`; add \`--growth-sizes 30000,100000,300000,1000000\`
for the million). The ratios are each size's p50 over the smallest size's: issue #30 asks at most
×2.5 for hybrid search and ×1.5 for restart from 30k to 300k. **\\***: 4 GiB V8 heap, as above.

- **restart**: the server stopped, started again, and its first hybrid search answered (the median
  of three restarts in a row: the first after a build finds more or less of the checkpoint in the
  system's page cache, by chance; \`bench.json\` has all three); **warm**:
  until the start has read its larger arrays in behind the first searches (\`/healthz\` no longer says
  \`index.warming\`). Searches are timed once warm, after a bulk build's restart too, each mode
  after 20 untimed other questions (a server just started runs its search code unoptimized; the
  timed questions' embeddings are still fetched, so dense includes the embeddings call).
- **after restart**: dense / hybrid p50 and RSS once restarted (residual rows and texts are then read
  from the checkpoint on demand, ids and metadata from its columns).
- **ingest**: chunks/s, through \`POST /v1/documents\` (http) or \`deno task ingest --bulk\` (bulk).

| chunks | dense ms | hybrid ms | recall@10 | RSS | restart | after restart | RSS after restart | ingest |
|---|---|---|---|---|---|---|---|---|
${growthRows.join("\n")}

| growth | dense p50 | hybrid p50 | restart |
|---|---|---|---|
${ratioRows.join("\n")}
${
    bulkRows.length
      ? `
The same index grown through the bulk ingest instead (\`deno task bench --only growth --growth-build bulk\`,
sizes in the note above): the server is stopped, the documents go into its data directory as JSONL
through \`deno task ingest --bulk\`, and the server starts on the result. Its searches (before the
restart too) read residual rows and texts from the checkpoint.

| chunks | dense ms | hybrid ms | recall@10 | RSS | restart | after restart | RSS after restart | ingest |
|---|---|---|---|---|---|---|---|---|
${bulkRows.join("\n")}

| growth | dense p50 | hybrid p50 | restart |
|---|---|---|---|
${bulkRatioRows.join("\n")}
`
      : ""
  }
## BM25 alone

In-process, the corpus of issue #30: documents of 60 tokens drawn from a Zipf law over 50k words,
100 queries of 5 words drawn from the same law (so most hold a word found in most documents), top
10. **exhaustive**: the scoring \`NamespaceIndex.sparse\` did before #30 (fresh arrays of the
namespace's size per query, document frequencies recounted, every slot scanned, an object per
matching chunk), transcribed in \`lib/vector-index/bench/sparse.ts\` over the same postings; **pruned**:
\`sparse()\` now (kept document frequencies, reused accumulators, a typed top-k, MaxScore-style
pruning). Alternated query by query in one run; p50 / p95.

| documents | exhaustive | pruned | speed-up (p50) | same top 10 | pruned queries |
|---|---|---|---|---|---|
${sparseRow}

## The dense kernels

\`lib/vector-index/kernel/dot.wat\` (WebAssembly SIMD, 945 bytes) against the same arithmetic in
plain JS, which is what workerd runs (it compiles no WebAssembly from bytes): 1,536-byte int8 rows
against an int16 query, every row (scan) or a tenth of them by number (gather), and Hamming
distances over 128-byte codes. Median of 7, the same rows for both.

| operation | rows | WebAssembly | JS | JS / WebAssembly |
|---|---|---|---|---|
${kernelRows.join("\n")}

## Vector width (\`EMBEDDING_DIMENSIONS\`)

The same path at about 20k chunks per width (OpenAI's \`dimensions\`: the bench's server cuts its
1,536-d vectors and renormalizes them, as OpenAI's models do). Speed and memory only: what a width
costs in answer quality cannot be measured with synthetic vectors (nor with the offline model, whose
hashed embedding has no width to cut); measure it on your own model with \`deno task eval\`.
**Durable Object**: what the index holds per chunk in V8 after a full GC (JS heap and buffers,
ARAGOG texts), and how many such chunks fit beside an empty index under Workers' 128 MB
(\`scripts/bench-state-capacity.ts\`).

| width | dense ms | hybrid ms | recall@10 | RSS | on disk | Durable Object per chunk | chunks under 128 MB |
|---|---|---|---|---|---|---|---|
${widthRows.join("\n")}

## Beside a peer engine

sift's \`LocalIndex\` and \`@orama/orama\` 3.1 in-process, on the same chunks and the same 2048-wide
vectors, each engine and size in a process of its own: inserts per second, search p50 over 40 ARAGOG
questions (Orama's vector modes with similarity 0.01, so they return ten), and what the index holds
after a full GC (JS heap plus typed arrays' buffers). No HNSW peer here: on these hashed vectors (a
few nonzero dimensions) the HNSW libraries that install reached only 0.33-0.66 recall@10; on dense
vectors usearch's HNSW stands beside sift above.

| engine | chunks | inserts/s | dense p50 | sparse p50 | hybrid p50 | memory |
|---|---|---|---|---|---|---|
${peerRows.join("\n")}

## Retrieval quality on ARAGOG

98 answerable questions, top 5, the same chunks for the baseline (plain Okapi BM25: no stemming).

${scoreTable(report.retrieval)}
${
    report.chunking?.length
      ? `
### Chunks: token windows beside structure

The same 98 questions, embedder and index, top 5: the fixed token windows sift cut before #22
(\`windows\`) and the chunker that follows paragraphs and sentences (\`structure\`, what
\`POST /v1/documents\` does now), both within \`CHUNK_SIZE\` 400 / \`CHUNK_OVERLAP\` 50.
**answer words in top 5**: the share of each reference answer's content words (stemmed, no stop
words) that the five chunks retrieved hold, averaged. The corpus is \`pdftotext\` output: blank
lines are its only structure (no headings), so this measures paragraph and sentence boundaries.
\`deno task bench:retrieval\` prints the same table.

${chunkerTable(report.chunking)}
${
        report.chunking_sweep?.length
          ? `
One size's figures move by a question or two with where the boundaries happen to fall; the same
comparison (hybrid) at other \`CHUNK_SIZE\`s:

${sweepTable(report.chunking_sweep)}
`
          : ""
      }`
      : ""
  }
${postgresSection(report.postgres)}${postgresServerSection(report.postgres_server)}
## The pipeline's critical path

In-process over the demo corpus, the offline model paced like a real one (first token after 150 ms,
300 tokens/s), one question. **sequential**: the same with \`sequential: true\` (× = what running
steps side by side saves). **first token**: the client's first \`answer-delta\` (+ how long after
the answer call's own first token was due). **prompt tokens**: every step's input tokens (× the
relevance baseline's). **repeated**: the same question again, caches warm.

| strategy | end to end | sequential | first token | prompt tokens | repeated |
|---|---|---|---|---|---|
${pipelineRows.join("\n")}

## Requests per second and CPU per request

Eight clients back to back for 5 s on loopback, over the demo corpus with the offline model:
\`POST /v1/search\` (hybrid, top 10) and \`POST /v2/rerank\` (one-turn, 10 documents; four queries, so
after the warm-up the rerank cache answers). CPU is the server's user + system time over the same
window per request: \`main.ts\` under Deno; under workerd, the all-in-one Worker in \`wrangler dev\`
(wrangler's local proxy and workerd together; the index lives in the Durable Object, one more hop
per search). The clients share the machine's 2 cores with the server.

| runtime | route | requests/s | CPU per request | p50 |
|---|---|---|---|---|
${loadRows.join("\n")}

${report.http ? httpSection(report.http) : ""}${workersSection(report.workers)}${
    renderRestart(report.restart, report.restart_note)
  }${renderRestartHttp(report.restart_http, report.restart_http_note)}${
    renderBulk(report.bulk, report.bulk_note)
  }`;
}

/** sift's HTTP server beside \`Deno.serve\` alone, with how it was measured. */
function httpSection(http: HttpReport): string {
  return `## The HTTP server beside \`Deno.serve\` alone

\`deno task bench:http\` (also \`deno task bench --only http\`): ${http.tool}, 8 connections, ${http.seconds} s
per measurement, ${http.rounds} rounds alternating, loopback. The same routes on \`main.ts\` and a
trivial \`Deno.serve\` handler (\`new Response("ok")\`) in its own process, with a keep-alive client
and with \`Connection: close\` (a new connection per request). CPU is the server process's user +
system time (/proc/<pid>/stat) over the window, per request. "Own work" is the route through
\`app.fetch\` in-process with no HTTP, on an embedded index of the same kind, CPU of every thread over
at least 2 s (/healthz ${(http.in_process_ms["/healthz"] * 1000).toFixed(0)} µs:
hono's middleware, per-request config and deps, the cached health report; sparse /v1/search
${(http.in_process_ms["/v1/search"] * 1000).toFixed(0)} µs), so the last column is sift's CPU over a
trivial handler's plus that work: 1.00 means HTTP costs sift what it costs \`Deno.serve\` alone.
The trivial process also answers the search's exact request with the search's exact reply
bytes ("search's reply": what \`Deno.serve\` alone costs for that exchange), and does the same
after spinning for the search's own work ("+ own work"): the most a change to sift's HTTP path
could reach without making the search's own work cheaper.

${httpTable(http)}

`;
}

if (import.meta.main) flags = commandArgs(COMMAND).values;
if (import.meta.main && flags.render) {
  const out = flag("out") ?? new URL("../", import.meta.url).pathname;
  const report = JSON.parse(await Deno.readTextFile(`${out}/bench.json`)) as BenchReport;
  await Deno.writeTextFile(`${out}/BENCHMARKS.md`, renderMarkdown(report));
} else if (import.meta.main) {
  const sizes = (flag("sizes") ?? "1000,10000,50000,100000").split(",").map(Number);
  const out = flag("out") ?? new URL("../", import.meta.url).pathname;
  const only = flag("only")?.split(",");
  // With --only, the other sections stay as the bench.json there has them.
  const report =
    (only ? JSON.parse(await Deno.readTextFile(`${out}/bench.json`)) : {}) as BenchReport;
  const sections: Record<(typeof SECTIONS)[number], () => Promise<Partial<BenchReport>>> = {
    index: async () => ({ index: await benchIndex(sizes, DATASET) }),
    dense: denseRows,
    growth: async () =>
      flag("growth-build") === "bulk"
        ? { growth_bulk: await growthRows() }
        : { growth: await growthRows() },
    sparse: () =>
      Promise.resolve({ sparse: benchSparse({ docs: Number(flag("sparse-docs") ?? 1_000_000) }) }),
    widths: async () => ({ dense_widths: await widthRows() }),
    kernel: () => Promise.resolve({ kernel: benchKernel() }),
    peers: async () => ({
      peers: await benchPeers(
        (flag("peer-sizes") ?? "1000,10000,50000").split(",").filter(Boolean).map(Number),
      ),
    }),
    retrieval: async () => ({ retrieval: await aragogQuality() }),
    chunking: chunkingRows,
    pipeline: async () => ({ pipeline: await benchPipeline() }),
    load: async () => {
      // --load-runtimes deno: Deno's rows again, the other runtime's as bench.json has them.
      const runtimes = (flag("load-runtimes") ?? "deno,workerd").split(",") as LoadRow["runtime"][];
      const kept = (report.load ?? []).filter((row) => !runtimes.includes(row.runtime));
      return { load: [...await benchLoad(runtimes), ...kept] };
    },
    http: async () => ({ http: await benchHttp() }),
    workers: async () => ({ workers: await workerSizes({ startup: true }) }),
    postgres: async () => ({
      postgres: await benchPostgres(
        DATASET,
        (flag("postgres-sizes") ?? "10000,100000").split(",").filter(Boolean).map(Number),
      ),
    }),
    restart: async () => ({
      restart: await benchRestart(
        (flag("restart-sizes") ?? "30000,100000,300000").split(",").map(Number),
        DATASET,
      ),
    }),
    "restart-http": async () => ({
      restart_http: await benchRestartHttp(
        (flag("restart-http-sizes") ?? "30000,100000,300000").split(",").map(Number),
        DATASET,
      ),
    }),
    bulk: async () => ({
      bulk: await benchBulk({
        chunks: Number(flag("bulk-chunks") ?? 1_000_000),
        baseline: 20_000,
        datasetDir: DATASET,
      }),
    }),
  };
  const unknown = only?.filter((name) => !(name in sections));
  if (unknown?.length) throw new Error(`--only: no section ${unknown.join(", ")}`);
  report.date = new Date().toISOString().slice(0, 10);
  report.machine = { cores: navigator.hardwareConcurrency, deno: Deno.version.deno };
  for (const [name, run] of Object.entries(sections)) {
    if (!only || only.includes(name)) Object.assign(report, await run());
  }
  await Deno.writeTextFile(`${out}/bench.json`, JSON.stringify(report, null, 2) + "\n");
  console.error("bench.json written");
  await Deno.writeTextFile(`${out}/BENCHMARKS.md`, renderMarkdown(report));
  console.log(renderMarkdown(report));
}

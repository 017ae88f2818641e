/**
 * The embedded index on a real model's vectors, through the real server:
 * `main.ts` in its own process with `LLM_BASE_URL` pointing at an
 * OpenAI-compatible embeddings server in this process (`dense-embeddings.ts`:
 * clustered unit vectors, 1,536 wide, every dimension nonzero), so ingest
 * goes through the same openai client path as with a real provider. Chunks
 * go in through `POST /v1/documents` in batches of 100 one-chunk documents
 * cut from ARAGOG text. At each size: dense and hybrid search times, recall@10
 * of dense search against an exact float search over the same vectors, RSS,
 * disk, ingest rate and a restart's time to its first search; and beside it
 * the same vectors in usearch (native HNSW, int8) and a plain exact scan
 * (usearch's `exactSearch`, float32, native SIMD).
 */
import usearch from "usearch";
import { DENSE_WIDTH, denseEmbedder, serveDenseEmbeddings, shortened } from "./dense-embeddings.ts";
import {
  makeDocuments,
  mean,
  post,
  quantile,
  rssMb,
  startServer,
  timed,
  untilWarm,
} from "./bench-index.ts";
import { readDataset } from "./retrieval-eval.ts";
import { readConfig } from "../shared/config.ts";
import { chunkDocuments } from "../shared/documents/ingest.ts";
import { searchableText } from "../shared/vector/port.ts";

const { Index, MetricKind, ScalarKind, exactSearch } = usearch as unknown as UsearchModule;

/**
 * Past this many chunks the server runs with a 4 GiB heap, as docs/embedded-index.md
 * advises: each chunk's id and metadata take about 0.8 KB of heap, and at 1M
 * the start task's 1 GiB left V8 collecting all the time (ingest fell to half
 * its rate, dense p50 47 ms, restart 35 s).
 */
const LARGE_INDEX_CHUNKS = 250_000;
const LARGE_INDEX_HEAP_MB = 4096;
/** Documents generated, chunked and written to the bulk JSONL at a time. */
const BULK_PIECE = 20_000;
const heapFor = (chunks: number) => chunks > LARGE_INDEX_CHUNKS ? LARGE_INDEX_HEAP_MB : undefined;

export type DenseSizeReport = {
  chunks: number;
  /** The vectors' width (`EMBEDDING_DIMENSIONS`, 1,536 by default). */
  width: number;
  ingest_chunks_per_second: number;
  ingest_last_over_first_tenth: number;
  search_ms: Record<"dense" | "hybrid", { p50: number; p95: number }>;
  /** Dense top 10 against exact float search over the same vectors, averaged over the queries. */
  recall_at_10: number;
  rss_mb: number;
  storage_mb: number;
  /** The median of `restart_runs_ms`: stop, start, first hybrid search answered. */
  restart_first_search_ms: number;
  restart_runs_ms?: number[];
  /**
   * After that restart: search p50/p95 (residual rows and texts are read from the checkpoint
   * file then) and RSS (the index as loaded, not as grown by ingest).
   */
  after_restart?: {
    /** Restart → the load's last arrays in (`/healthz` no longer `warming`): searches are timed after. */
    warm_ms?: number;
    search_ms: Record<"dense" | "hybrid", { p50: number; p95: number }>;
    rss_mb: number;
  };
  /** How the chunks went in: through `POST /v1/documents`, or `deno task ingest --bulk`. */
  build?: "http" | "bulk";
  /** V8's heap cap when not the start task's. */
  heap_mb?: number;
};

export type DensePeerRow = {
  engine: "sift" | "usearch" | "exact scan";
  chunks: number;
  width: number;
  /** Vectors added per second (sift: chunks ingested per second through the server). */
  insert_per_second: number | null;
  dense_p50_ms: number;
  recall_at_10: number;
  /** What the engine holds: sift's RSS, usearch's serialized index. */
  memory_mb: number;
};

type Matches = { keys: BigUint64Array; distances: Float32Array };
type UsearchIndex = {
  add(keys: BigUint64Array, vectors: Float32Array, threads?: number): void;
  search(vector: Float32Array, k: number, threads: number): Matches;
  save(path: string): void;
};
type UsearchModule = {
  Index: new (config: Record<string, unknown>) => UsearchIndex;
  MetricKind: { Cos: unknown };
  ScalarKind: { F16: unknown };
  exactSearch(
    dataset: Float32Array,
    queries: Float32Array,
    dimensions: number,
    count: number,
    metric: unknown,
    threads?: number,
  ): Matches;
};

/** Restarts timed per size (the median is reported). */
const RESTART_RUNS = 3;

/**
 * p50/p95 of dense and hybrid `/v1/search` over `queries`; `found` gets each dense top 10's ids.
 * Each mode first answers `warmups` (other questions, untimed: a server just started runs its
 * search code unoptimized at first, and the timed questions' embeddings stay uncached).
 */
async function searchTimes(
  url: string,
  queries: string[],
  warmups: string[],
  found: string[][] = [],
): Promise<DenseSizeReport["search_ms"]> {
  const search = {} as DenseSizeReport["search_ms"];
  for (const mode of ["dense", "hybrid"] as const) {
    for (const query of warmups) await post(url, "/v1/search", { query, mode, top_k: 10 });
    const times: number[] = [];
    for (const query of queries) {
      let hits: { id: string }[] = [];
      times.push(
        await timed(async () => {
          const body = await post(url, "/v1/search", { query, mode, top_k: 10 });
          hits = (body as { results: { id: string }[] }).results;
        }),
      );
      if (mode === "dense") found.push(hits.map((hit) => hit.id));
    }
    search[mode] = { p50: quantile(times, 0.5), p95: quantile(times, 0.95) };
  }
  return search;
}

/** Runs the sizes in increasing order on one growing index; returns rows and peer rows. */
export async function benchDense(
  sizes: number[],
  datasetDir: string,
  options: { width?: number; peers?: boolean; build?: "http" | "bulk" } = {},
): Promise<{ index: DenseSizeReport[]; peers: DensePeerRow[] }> {
  const width = options.width ?? DENSE_WIDTH;
  const { documents, questions } = await readDataset(datasetDir);
  const words = documents.map((document) => document.text).join(" ").split(/\s+/);
  const queries = questions.slice(0, 40).map((question) => question.question);
  const warmups = questions.slice(40, 60).map((question) => question.question);
  const nextDocuments = makeDocuments(words, 11);
  const embed = denseEmbedder(DENSE_WIDTH);
  // The batch being posted: the server hands out these vectors instead of computing them again.
  const pending = new Map<string, Float32Array>();
  const embeddings = serveDenseEmbeddings({ embed: (text) => pending.get(text) ?? embed(text) });
  // Documents are cut into one chunk, at times two: room for the chunks of the last batch.
  const largest = Math.max(...sizes) + 256;
  const vectors = new Float32Array(largest * width);
  const rowOf = new Map<string, number>();
  // Copies, not views into one array: usearch's native side ignores a view's offset.
  const queryVectors = queries.map((query) => shortened(embed(query), width).slice());
  const dataDir = await Deno.makeTempDir({ prefix: "sift-bench-dense-" });
  const env = {
    DEMO_CORPUS: "false",
    LLM_BASE_URL: `${embeddings.url}/v1`,
    LLM_API_KEY: "bench",
    ...(width !== DENSE_WIDTH ? { EMBEDDING_DIMENSIONS: String(width) } : {}),
  };
  let server = await startServer(dataDir, env, heapFor(Math.min(...sizes)));
  let heap = heapFor(Math.min(...sizes));
  const peer = options.peers === false ? undefined : new Index({
    dimensions: width,
    metric: MetricKind.Cos,
    quantization: ScalarKind.F16,
    connectivity: 16,
    expansion_add: 128,
    expansion_search: 64,
  });
  let inPeer = 0;
  const index: DenseSizeReport[] = [];
  const peers: DensePeerRow[] = [];
  const { chunking } = readConfig({});
  // Each chunk's vector as the server will get it: the same chunker, the same searchable text.
  const ingest = async (count: number) => {
    const batch = nextDocuments(count);
    for (const document of await chunkDocuments(batch, chunking)) {
      for (const chunk of document.chunks) {
        const text = searchableText(chunk);
        const vector = shortened(embed(text), width);
        pending.set(text, vector);
        vectors.set(vector, rowOf.size * width);
        rowOf.set(chunk.id, rowOf.size);
      }
    }
    const ms = await timed(() => post(server.url, "/v1/documents", { documents: batch }));
    pending.clear();
    return ms;
  };
  const build = options.build ?? "http";
  /**
   * The bulk path instead: the server stopped, documents up to `size` chunks as JSONL through
   * `deno task ingest --bulk` into its data directory (the vectors from the same embeddings
   * server), the server started again. Returns the ingest's seconds.
   */
  const bulkIngest = async (size: number) => {
    const file = `${dataDir}.jsonl`;
    const out = await Deno.open(file, { create: true, write: true, truncate: true });
    const encoder = new TextEncoder();
    while (rowOf.size < size) {
      // A document is one chunk, at times two: half the chunks still wanted never overshoots.
      const wanted = Math.ceil((size - rowOf.size) / 2);
      const batch = nextDocuments(Math.min(BULK_PIECE, wanted));
      for (const document of await chunkDocuments(batch, chunking)) {
        for (const chunk of document.chunks) {
          vectors.set(shortened(embed(searchableText(chunk)), width), rowOf.size * width);
          rowOf.set(chunk.id, rowOf.size);
        }
      }
      await out.write(encoder.encode(batch.map((line) => JSON.stringify(line) + "\n").join("")));
    }
    out.close();
    await server.stop();
    const started = performance.now();
    const ingest = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        `--v8-flags=--max-old-space-size=${LARGE_INDEX_HEAP_MB}`,
        "scripts/ingest.ts",
        "--bulk",
        file,
      ],
      cwd: new URL("../", import.meta.url).pathname,
      env: { ...env, SIFT_DATA_DIR: dataDir, NO_COLOR: "1" },
      stdout: "null",
      stderr: "inherit",
    }).output();
    const seconds = (performance.now() - started) / 1000;
    await Deno.remove(file);
    if (!ingest.success) throw new Error(`deno task ingest --bulk failed (${ingest.code})`);
    server = await startServer(dataDir, env, heap);
    return seconds;
  };
  try {
    for (const size of [...sizes].sort((a, b) => a - b)) {
      if (heapFor(size) !== heap) {
        await server.stop();
        heap = heapFor(size);
        server = await startServer(dataDir, env, heap);
      }
      const batches: number[] = [];
      const started = performance.now();
      const before = rowOf.size;
      let ingestSeconds: number;
      if (build === "bulk") {
        ingestSeconds = await bulkIngest(size);
      } else {
        while (rowOf.size < size) batches.push(await ingest(Math.min(100, size - rowOf.size)));
        ingestSeconds = (performance.now() - started) / 1000;
      }
      const held = rowOf.size;
      const tenth = Math.max(1, Math.floor(batches.length / 10));
      const found: string[][] = [];
      await untilWarm(server.url); // a bulk build restarts the server
      const search = await searchTimes(server.url, queries, warmups, found);
      // Exact float search over the same vectors: the ground truth, and the plain-scan peer.
      const dataset = vectors.subarray(0, held * width);
      const truth: Set<number>[] = [];
      const exactTimes: number[] = [];
      for (let q = 0; q < queries.length; q++) {
        const query = queryVectors[q]!;
        let matches: Matches | undefined;
        exactTimes.push(
          await timed(() =>
            Promise.resolve(matches = exactSearch(dataset, query, width, 10, MetricKind.Cos))
          ),
        );
        truth.push(new Set(Array.from(matches!.keys, Number)));
      }
      if (Deno.env.get("BENCH_DEBUG")) {
        const idOf = new Map([...rowOf].map(([id, row]) => [row, id]));
        for (let q = 0; q < 3; q++) {
          const cosine = (row: number) => {
            let sum = 0;
            for (let d = 0; d < width; d++) sum += vectors[row * width + d]! * queryVectors[q]![d]!;
            return sum.toFixed(5);
          };
          console.error(
            `q${q} sift:`,
            found[q]!.map((id) => `${id}=${cosine(rowOf.get(id)!)}`).join(" "),
          );
          console.error(
            `q${q} true:`,
            [...truth[q]!].map((row) => `${idOf.get(row)}=${cosine(row)}`).join(" "),
          );
        }
      }
      const recall = mean(
        found.map((ids, q) => ids.filter((id) => truth[q]!.has(rowOf.get(id) ?? -1)).length / 10),
      );
      const rss = rssMb(server.pid);
      const storageMb = [...Deno.readDirSync(dataDir)]
        .reduce((sum, entry) => sum + Deno.statSync(`${dataDir}/${entry.name}`).size, 0) / 1e6;
      // Restart → first search, three times (the median is reported): the first restart after a
      // build finds more or less of the checkpoint in the system's page cache, by chance.
      const restarts: number[] = [];
      let restartStarted = 0;
      for (let run = 0; run < RESTART_RUNS; run++) {
        // Each restart stops a server that has its whole index in (as a running one does), not one
        // still reading it in behind the last restart's first search.
        await untilWarm(server.url);
        await server.stop();
        restartStarted = performance.now();
        server = await startServer(dataDir, env, heap);
        await post(server.url, "/v1/search", { query: queries[0]!, mode: "hybrid", top_k: 10 });
        restarts.push(performance.now() - restartStarted);
      }
      const restart = quantile(restarts, 0.5);
      await untilWarm(server.url);
      const warm = performance.now() - restartStarted;
      const afterRestart = {
        warm_ms: warm,
        search_ms: await searchTimes(server.url, queries, warmups),
        rss_mb: rssMb(server.pid),
      };
      const report: DenseSizeReport = {
        chunks: held,
        width,
        ingest_chunks_per_second: build === "bulk"
          ? (held - before) / ingestSeconds
          : batches.length
          ? (batches.length * 100) / ingestSeconds
          : 0,
        ingest_last_over_first_tenth: batches.length >= 10
          ? mean(batches.slice(-tenth)) / mean(batches.slice(0, tenth))
          : 1,
        search_ms: search,
        recall_at_10: recall,
        rss_mb: rss,
        storage_mb: storageMb,
        restart_first_search_ms: restart,
        restart_runs_ms: restarts,
        after_restart: afterRestart,
        build,
        ...(heap ? { heap_mb: heap } : {}),
      };
      index.push(report);
      console.error(`dense index at ${held} chunks: ${JSON.stringify(report)}`);
      peers.push({
        engine: "sift",
        chunks: held,
        width,
        insert_per_second: report.ingest_chunks_per_second,
        dense_p50_ms: search.dense.p50,
        recall_at_10: recall,
        memory_mb: rss,
      }, {
        engine: "exact scan",
        chunks: held,
        width,
        insert_per_second: null,
        dense_p50_ms: quantile(exactTimes, 0.5),
        recall_at_10: 1,
        memory_mb: (held * width * 4) / 1e6,
      });
      if (peer) peers.push(usearchRow(peer, held, truth));
    }
  } finally {
    await server.stop();
    await embeddings.stop();
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  }
  return { index, peers };

  function usearchRow(engine: UsearchIndex, held: number, truth: Set<number>[]): DensePeerRow {
    const keys = BigUint64Array.from({ length: held - inPeer }, (_, i) => BigInt(inPeer + i));
    const started = performance.now();
    // A view where it starts at 0 (usearch ignores a view's offset, not its length): at 1M rows a
    // copy would be 6 GB more beside the server's 7.
    const added = inPeer === 0
      ? vectors.subarray(0, held * width)
      : vectors.slice(inPeer * width, held * width);
    engine.add(keys, added, 2);
    const insertSeconds = (performance.now() - started) / 1000;
    const count = held - inPeer;
    inPeer = held;
    const times: number[] = [];
    let found = 0;
    for (let q = 0; q < queries.length; q++) {
      const query = queryVectors[q]!;
      const at = performance.now();
      const matches = engine.search(query, 10, 1);
      times.push(performance.now() - at);
      found += Array.from(matches.keys, Number).filter((key) => truth[q]!.has(key)).length;
    }
    const file = Deno.makeTempFileSync({ suffix: ".usearch" });
    engine.save(file);
    const bytes = Deno.statSync(file).size;
    Deno.removeSync(file);
    return {
      engine: "usearch",
      chunks: held,
      width,
      insert_per_second: count / insertSeconds,
      dense_p50_ms: quantile(times, 0.5),
      recall_at_10: found / (queries.length * 10),
      memory_mb: bytes / 1e6,
    };
  }
}

if (import.meta.main) {
  const flag = (name: string) => {
    const at = Deno.args.indexOf(`--${name}`);
    return at >= 0 ? Deno.args[at + 1] : undefined;
  };
  const sizes = (flag("sizes") ?? "10000").split(",").map(Number);
  const width = Number(flag("width") ?? DENSE_WIDTH);
  const dataset = new URL("../../shared/datasets/aragog", import.meta.url).pathname;
  const result = await benchDense(sizes, dataset, { width, peers: flag("peers") !== "false" });
  console.log(JSON.stringify(result, null, 2));
}

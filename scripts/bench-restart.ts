/**
 * Restart to first search of the embedded index, at several sizes in one run.
 * Each size's data directory is written in this process as a clean shutdown
 * leaves it (one checkpoint, no log): 1,536-d vectors from the dense bench's
 * embedder and texts cut from ARAGOG, analyzed once for a pool of 2,000
 * chunks that the chunks then reuse under ids and metadata of their own,
 * distinct as a real corpus's are (documents of 1 to 15 chunks, each with a
 * title, url, source, section and page): what a restart costs depends on the
 * sizes of the arrays and the number of distinct keys, not on which vectors
 * they hold, and building 300k distinct chunks takes longer than this
 * machine can spare. Then `deno task start` runs on it as its own process, and the time
 * from spawning it to its first answered hybrid search is taken `RUNS` times
 * (median), beside the same on an empty data directory (what starting the
 * process costs, the index aside) and the load alone in this process.
 *
 *   deno run -A scripts/bench-restart.ts [sizes...]   (default 30000 100000 300000)
 *   deno run -A scripts/bench-restart.ts build <chunks> <dir>   (a real ingest: see `build`)
 *   deno run -A scripts/bench-restart.ts http [sizes...] [--dense]   (grown over HTTP: see
 *     bench-restart-http.ts)
 */
import { denseEmbedder, serveDenseEmbeddings } from "./dense-embeddings.ts";
import { benchRestartHttp } from "./bench-restart-http.ts";
import { makeDocuments, post, quantile, rssMb, startServer, timed } from "./bench-index.ts";
import { readDataset } from "./retrieval-eval.ts";
import { readConfig } from "../shared/config.ts";
import { chunkDocuments } from "../shared/documents/ingest.ts";
import { FileIndexLog, type PreparedChunk } from "../lib/vector-index/deno/mod.ts";
import { loadMs, preparePool, writeIndex } from "../lib/vector-index/bench/restart.ts";
import { LocalIndex } from "../adapters/vector-index/local.ts";
import { type IndexedChunk, searchableText } from "../shared/vector/port.ts";

const RUNS = 3;
const BATCH = 1000;

export type RestartReport = {
  chunks: number;
  checkpoint_mb: number;
  /** Median over `RUNS` starts: spawning `deno task start` to the first hybrid search answered. */
  restart_first_search_ms: number;
  /** The same on an empty data directory, measured just before: the process's own start. */
  empty_start_first_search_ms: number;
  /** `FileIndexLog.load` and `NamespaceIndex.restore` in this process (median of `RUNS`). */
  load_ms: number;
  /** The same index written in checkpoint format 1 (before #30), loaded the same way. */
  load_format1_ms: number;
  rss_after_first_search_mb: number;
};

const POOL = 2000;

async function poolOf(words: string[]): Promise<PreparedChunk[]> {
  const embed = denseEmbedder();
  const { chunking } = readConfig({});
  const pool: IndexedChunk[] = [];
  for (const document of await chunkDocuments(makeDocuments(words, 11)(POOL), chunking)) {
    const chunk = document.chunks[0]!;
    pool.push({ ...chunk, vector: Array.from(embed(searchableText(chunk))) });
  }
  return preparePool(pool);
}

const ROOT = new URL("../", import.meta.url).pathname;

/**
 * A real ingest of `size` chunks into `dataDir` in this process (chunker,
 * embedder, analysis, fsynced log records of 1,000 chunks, checkpoints as
 * they fall due, a last one at the end); returns its seconds. The bulk build
 * without HTTP: `build 1000000 <dir>` is the million.
 */
export async function build(dataDir: string, size: number, words: string[]): Promise<number> {
  const embed = denseEmbedder();
  const nextDocuments = makeDocuments(words, 11);
  const { chunking } = readConfig({});
  const log = new FileIndexLog(`${dataDir}/index.log`);
  const index = new LocalIndex({ log });
  const started = performance.now();
  let held = 0;
  while (held < size) {
    const chunks: IndexedChunk[] = [];
    for (const document of await chunkDocuments(nextDocuments(BATCH), chunking)) {
      for (const chunk of document.chunks) {
        chunks.push({ ...chunk, vector: Array.from(embed(searchableText(chunk))) });
      }
    }
    const taken = chunks.slice(0, size - held);
    await index.upsert(taken, { namespace: "default" });
    held += taken.length;
  }
  await index.flush();
  log.close();
  return (performance.now() - started) / 1000;
}

export async function benchRestart(sizes: number[], datasetDir: string): Promise<RestartReport[]> {
  const { documents, questions } = await readDataset(datasetDir);
  const words = documents.map((document) => document.text).join(" ").split(/\s+/);
  const query = questions[0]!.question;
  const pool = await poolOf(words);
  const embeddings = serveDenseEmbeddings();
  const env = {
    DEMO_CORPUS: "false",
    LLM_BASE_URL: `${embeddings.url}/v1`,
    LLM_API_KEY: "bench",
  };
  /** Spawn to first hybrid search on `dataDir`, `RUNS` times: the median, and the last RSS. */
  const starts = async (dataDir: string, heapMb?: number) => {
    const times: number[] = [];
    let rss = 0;
    for (let run = 0; run < RUNS; run++) {
      let server: Awaited<ReturnType<typeof startServer>> | undefined;
      times.push(
        await timed(async () => {
          server = await startServer(dataDir, env, heapMb);
          await post(server.url, "/v1/search", { query, mode: "hybrid", top_k: 10 });
        }),
      );
      rss = rssMb(server!.pid);
      await server!.stop();
    }
    return { ms: quantile(times, 0.5), rss, times };
  };
  const reports: RestartReport[] = [];
  try {
    for (const size of sizes) {
      const dataDir = await Deno.makeTempDir({ prefix: "sift-bench-restart-" });
      const emptyDir = await Deno.makeTempDir({ prefix: "sift-bench-restart-empty-" });
      const format1Dir = await Deno.makeTempDir({ prefix: "sift-bench-restart-format1-" });
      try {
        await writeIndex(dataDir, size, pool, format1Dir);
        const checkpoint = Deno.statSync(`${dataDir}/index.ckpt`).size / 1e6;
        const heap = size > 250_000 ? 4096 : undefined;
        const empty = await starts(emptyDir, heap);
        const full = await starts(dataDir, heap);
        const loads: number[] = [];
        const format1Loads: number[] = [];
        for (let run = 0; run < RUNS; run++) {
          loads.push(await loadMs(dataDir));
          format1Loads.push(await loadMs(format1Dir));
        }
        const report: RestartReport = {
          chunks: size,
          checkpoint_mb: checkpoint,
          restart_first_search_ms: full.ms,
          empty_start_first_search_ms: empty.ms,
          load_ms: quantile(loads, 0.5),
          load_format1_ms: quantile(format1Loads, 0.5),
          rss_after_first_search_mb: full.rss,
        };
        console.error(
          `restart at ${size}: ${JSON.stringify(report)} (runs: ${full.times.join(", ")}; ` +
            `empty: ${empty.times.join(", ")}; load: ${loads.join(", ")}; ` +
            `format 1: ${format1Loads.join(", ")})`,
        );
        reports.push(report);
      } finally {
        await Deno.remove(dataDir, { recursive: true }).catch(() => {});
        await Deno.remove(emptyDir, { recursive: true }).catch(() => {});
        await Deno.remove(format1Dir, { recursive: true }).catch(() => {});
      }
    }
  } finally {
    await embeddings.stop();
  }
  return reports;
}

/** BENCHMARKS.md's section for `bench.json`'s `restart` (after the rest: its own lines). */
export function renderRestart(rows: RestartReport[] | undefined, note?: string): string {
  if (!rows?.length) return "";
  const ms = (value: number) => value.toFixed(0);
  const first = rows[0]!;
  const table = rows.map((row) =>
    `| ${row.chunks.toLocaleString("en")} | ${(row.checkpoint_mb / 1000).toFixed(2)} GB | ${
      ms(row.restart_first_search_ms)
    } ms | ${ms(row.empty_start_first_search_ms)} ms | ${
      ms(row.restart_first_search_ms - row.empty_start_first_search_ms)
    } ms | ${ms(row.load_ms)} ms | ${ms(row.load_format1_ms)} ms | ×${
      (row.restart_first_search_ms / first.restart_first_search_ms).toFixed(2)
    } |`
  );
  return `
## Restart to first search (checkpoint format 2)

\`deno run -A scripts/bench-restart.ts 30000 100000 300000\` (#30): each size's data directory as a
clean stop leaves it (one checkpoint, 1,536-d vectors), then \`deno task start\` spawned on it until
its first hybrid search is answered (median of 3), beside the same on an empty data directory (the
process's own start), and the load alone in-process (\`FileIndexLog.load\` and
\`NamespaceIndex.restore\`), in format 2 and, for the same index, in format 1 (before #30). Over
300k the server gets a 4 GiB heap. **× 30k**: restart over the smallest size's.${
    note ? `\n\n${note}` : ""
  }

| chunks | checkpoint | restart | empty start | difference | load | load, format 1 | × ${
    first.chunks.toLocaleString("en")
  } |
|---|---|---|---|---|---|---|---|
${table.join("\n")}
`;
}

if (import.meta.main && Deno.args[0] === "http") {
  // `http [sizes...] [--dense]`: grown through the server's HTTP API (bench-restart-http.ts).
  const sizes = Deno.args.slice(1).filter((arg) => arg !== "--dense").map(Number);
  const reports = await benchRestartHttp(
    sizes.length ? sizes : [30_000, 100_000, 300_000],
    `${ROOT}../shared/datasets/aragog`,
    { dense: Deno.args.includes("--dense") },
  );
  console.log(JSON.stringify(reports, null, 2));
} else if (import.meta.main && Deno.args[0] === "build") {
  // `build <size> <dir>`: only the data directory (to profile a start on it).
  const { documents } = await readDataset(`${ROOT}../shared/datasets/aragog`);
  const words = documents.map((document) => document.text).join(" ").split(/\s+/);
  const seconds = await build(Deno.args[2]!, Number(Deno.args[1]), words);
  console.log(`built ${Deno.args[1]} chunks in ${seconds.toFixed(1)} s`);
} else if (import.meta.main) {
  const sizes = Deno.args.length ? Deno.args.map(Number) : [30_000, 100_000, 300_000];
  const reports = await benchRestart(sizes, `${ROOT}../shared/datasets/aragog`);
  console.log(JSON.stringify(reports, null, 2));
}

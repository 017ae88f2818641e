/**
 * Restart to first search of the embedded index, at several sizes in one run:
 * each size's data directory is built in this process (the chunker, the
 * dense embedder the dense bench serves, `LocalIndex` over a `FileIndexLog`,
 * then a checkpoint, as a clean shutdown leaves it), then `deno task start`
 * runs on it as its own process, and the time from spawning it to its first
 * answered hybrid search is taken, `RUNS` times (the median is reported).
 * Building in-process skips HTTP and the embedding server's JSON, so the
 * build rate here is the index's own (the server's ingest is `bench:index`).
 *
 *   deno run -A scripts/bench-restart.ts [sizes...]   (default 30000 100000 300000)
 */
import { denseEmbedder, serveDenseEmbeddings } from "./dense-embeddings.ts";
import { makeDocuments, post, quantile, rssMb, startServer, timed } from "./bench-index.ts";
import { readDataset } from "./retrieval-eval.ts";
import { readConfig } from "../shared/config.ts";
import { chunkDocuments } from "../shared/documents/ingest.ts";
import { FileIndexLog } from "../shared/deno/file-index-log.ts";
import { LocalIndex } from "../shared/vector/local.ts";
import { type IndexedChunk, searchableText } from "../shared/vector/port.ts";

const RUNS = 3;
const BATCH = 1000;

export type RestartReport = {
  chunks: number;
  /** Chunks per second into the index in this process (chunking, analysis, log, checkpoint). */
  build_chunks_per_second: number;
  checkpoint_mb: number;
  /** Median over `RUNS` starts: spawning `deno task start` to the first hybrid search answered. */
  restart_first_search_ms: number;
  rss_after_first_search_mb: number;
};

const ROOT = new URL("../", import.meta.url).pathname;

/** Builds `size` chunks into `dataDir` and checkpoints them; returns the build's seconds. */
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
  const embeddings = serveDenseEmbeddings();
  const env = {
    DEMO_CORPUS: "false",
    LLM_BASE_URL: `${embeddings.url}/v1`,
    LLM_API_KEY: "bench",
  };
  const reports: RestartReport[] = [];
  try {
    for (const size of sizes) {
      const dataDir = await Deno.makeTempDir({ prefix: "sift-bench-restart-" });
      try {
        const seconds = await build(dataDir, size, words);
        const checkpoint = Deno.statSync(`${dataDir}/index.ckpt`).size / 1e6;
        const times: number[] = [];
        let rss = 0;
        for (let run = 0; run < RUNS; run++) {
          let server: Awaited<ReturnType<typeof startServer>> | undefined;
          times.push(
            await timed(async () => {
              server = await startServer(dataDir, env, size > 250_000 ? 4096 : undefined);
              await post(server.url, "/v1/search", { query, mode: "hybrid", top_k: 10 });
            }),
          );
          rss = rssMb(server!.pid);
          await server!.stop();
        }
        const report: RestartReport = {
          chunks: size,
          build_chunks_per_second: size / seconds,
          checkpoint_mb: checkpoint,
          restart_first_search_ms: quantile(times, 0.5),
          rss_after_first_search_mb: rss,
        };
        console.error(`restart at ${size}: ${JSON.stringify(report)} (runs: ${times.join(", ")})`);
        reports.push(report);
      } finally {
        await Deno.remove(dataDir, { recursive: true }).catch(() => {});
      }
    }
  } finally {
    await embeddings.stop();
  }
  return reports;
}

if (import.meta.main && Deno.args[0] === "build") {
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

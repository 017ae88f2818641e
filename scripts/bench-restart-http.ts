/**
 * Restart after an index grown the way users grow it: one-chunk documents
 * through `POST /v1/documents` of the real server (`deno task start`, on
 * 127.0.0.1), one document a request, `CONCURRENCY` requests in flight, so
 * the index holds what its log and its background checkpoints made of them,
 * not what a bulk build writes. At each size, in order on one data directory
 * (30k, then on to 100k, then 300k): SIGTERM (timed to the process's exit,
 * with what the stop left: temporary files, log bytes, whether the directory's
 * lock is free), then `RUNS` starts each timed from spawn to the first hybrid
 * search answered (the first is the restart after ingest), then hybrid p50
 * over ARAGOG's questions once warm. The ingest goes on from there.
 *
 *   deno run -A scripts/bench-restart.ts http [sizes...] [--dense]   (default 30000 100000 300000)
 *
 * `--dense`: 1,536-d vectors from a local OpenAI-compatible embeddings server
 * instead of the offline model's hashed ones.
 */
import { serveDenseEmbeddings } from "./dense-embeddings.ts";
import { makeDocuments, post, quantile, startServer, timed, untilWarm } from "./bench-index.ts";
import { readDataset } from "./retrieval-eval.ts";

const RUNS = 3;
const CONCURRENCY = 8;

export type HttpRestartReport = {
  chunks: number;
  /** Vectors: the offline model's hashed ones, or 1,536-d dense ones. */
  vectors: "hashed" | "dense-1536";
  ingest_chunks_per_second: number;
  /** SIGTERM to the process's exit, right after the ingest to this size. */
  stop_ms: number;
  /** What that stop left in the data directory. */
  left_after_stop: { temporary_files: number; log_bytes: number; lock_free: boolean };
  checkpoint_mb: number;
  /** Spawn to the first hybrid search answered, the first start after the ingest's stop. */
  restart_first_search_ms: number;
  /** The median of `RUNS` starts in a row (the first among them). */
  restart_median_ms: number;
  /** Once warm, ARAGOG's questions as hybrid searches one after another: the median. */
  hybrid_p50_ms: number;
};

/** What the directory holds after a stop, and whether another process could take it now. */
async function leftIn(dataDir: string): Promise<HttpRestartReport["left_after_stop"]> {
  let temporary = 0;
  let logBytes = 0;
  for await (const entry of Deno.readDir(dataDir)) {
    if (entry.name.endsWith(".tmp")) temporary++;
    if (/^index(\.\d+)?\.log$/.test(entry.name)) {
      logBytes += (await Deno.stat(`${dataDir}/${entry.name}`)).size;
    }
  }
  const lock = await Deno.open(`${dataDir}/owner.lock`, { read: true, write: true });
  const free = await lock.tryLock(true);
  lock.close(); // closing releases it
  return { temporary_files: temporary, log_bytes: logBytes, lock_free: free };
}

/**
 * Documents of about 100 words through `/v1/documents`, one a request,
 * `CONCURRENCY` at a time, until `count` more chunks are in (a document is
 * one chunk but for the odd one cut in two); resolves to the chunks added.
 */
async function ingest(
  url: string,
  next: (count: number) => { id: string; title: string; text: string }[],
  count: number,
): Promise<number> {
  let added = 0;
  let sent = 0;
  const worker = async () => {
    while (sent < count) {
      const [document] = next(1);
      const text = document!.text.split(" ").slice(0, 100).join(" ");
      sent++;
      const reply = await post(url, "/v1/documents", { documents: [{ ...document, text }] }) as {
        chunks: number;
      };
      added += reply.chunks;
      sent += reply.chunks - 1;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return added;
}

export async function benchRestartHttp(
  sizes: number[],
  datasetDir: string,
  options: { dense?: boolean } = {},
): Promise<HttpRestartReport[]> {
  const { documents, questions } = await readDataset(datasetDir);
  const words = documents.map((document) => document.text).join(" ").split(/\s+/);
  const queries = questions.map((question) => question.question);
  const next = makeDocuments(words, 11);
  const embeddings = options.dense ? serveDenseEmbeddings({ dimensions: 1536 }) : undefined;
  const env: Record<string, string> = {
    DEMO_CORPUS: "false",
    ...(embeddings ? { LLM_BASE_URL: `${embeddings.url}/v1`, LLM_API_KEY: "bench" } : {}),
  };
  const dataDir = await Deno.makeTempDir({ prefix: "sift-bench-restart-http-" });
  const reports: HttpRestartReport[] = [];
  // Over 250k chunks the server gets a 4 GiB heap (as bench-restart's bulk-built sizes do).
  const heapMb = Math.max(...sizes) > 250_000 ? 4096 : undefined;
  let held = 0;
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    server = await startServer(dataDir, env, heapMb);
    for (const size of sizes) {
      const started = performance.now();
      const added = await ingest(server.url, next, size - held);
      const chunksPerSecond = added / ((performance.now() - started) / 1000);
      held += added;
      const running = server;
      const stopMs = await timed(() => running.stop());
      const left = await leftIn(dataDir);
      const checkpointMb = await Deno.stat(`${dataDir}/index.ckpt`)
        .then((stat) => stat.size / 1e6, () => 0);
      const times: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        times.push(
          await timed(async () => {
            server = await startServer(dataDir, env, heapMb);
            await post(server.url, "/v1/search", { query: queries[0], mode: "hybrid", top_k: 10 });
          }),
        );
        if (run < RUNS - 1) await server.stop();
      }
      const { url } = server;
      await untilWarm(url);
      const searches: number[] = [];
      for (const query of queries) {
        searches.push(
          await timed(() => post(url, "/v1/search", { query, mode: "hybrid", top_k: 10 })),
        );
      }
      const report: HttpRestartReport = {
        chunks: held,
        vectors: embeddings ? "dense-1536" : "hashed",
        ingest_chunks_per_second: chunksPerSecond,
        stop_ms: stopMs,
        left_after_stop: left,
        checkpoint_mb: checkpointMb,
        restart_first_search_ms: times[0]!,
        restart_median_ms: quantile(times, 0.5),
        hybrid_p50_ms: quantile(searches, 0.5),
      };
      console.error(
        `http restart at ${held}: ${JSON.stringify(report)} (starts: ${
          times.map((time) => time.toFixed(0)).join(", ")
        })`,
      );
      reports.push(report);
    }
  } finally {
    await server?.stop().catch(() => {});
    await embeddings?.stop();
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  }
  return reports;
}

/** BENCHMARKS.md's section for `bench.json`'s `restart_http` (after the bulk-built restart's). */
export function renderRestartHttp(rows: HttpRestartReport[] | undefined, note?: string): string {
  if (!rows?.length) return "";
  const ms = (value: number) => value.toFixed(0);
  // Each row against the smallest size with the same vectors.
  const base = (row: HttpRestartReport) => rows.find((other) => other.vectors === row.vectors)!;
  const table = rows.map((row) =>
    `| ${row.chunks.toLocaleString("en")} | ${row.vectors} | ${
      Math.round(row.ingest_chunks_per_second)
    } | ${ms(row.stop_ms)} ms | ${row.left_after_stop.temporary_files} / ${
      (row.left_after_stop.log_bytes / 1e6).toFixed(1)
    } MB / ${row.left_after_stop.lock_free ? "free" : "held"} | ${
      (row.checkpoint_mb / 1000).toFixed(2)
    } GB | ${ms(row.restart_first_search_ms)} ms | ${ms(row.restart_median_ms)} ms | ${
      row.hybrid_p50_ms.toFixed(1)
    } ms | ×${(row.restart_first_search_ms / base(row).restart_first_search_ms).toFixed(2)} / ×${
      (row.hybrid_p50_ms / base(row).hybrid_p50_ms).toFixed(2)
    } |`
  );
  return `
## Restart after HTTP ingest

\`deno run -A scripts/bench-restart.ts http 30000 100000 300000\` (also \`deno task bench --only
restart-http\`; #44): one data directory grown the way users grow it, one-chunk documents through
\`POST /v1/documents\` of \`deno task start\` (one a request, 8 in flight), background checkpoints as
they fall due; after each size SIGTERM (**stop**: to the process's exit; **left**: temporary files /
log bytes to replay / the directory's lock), then three starts timed from spawn to the first hybrid
search answered (**restart**: the first, right after the ingest's stop; **median** of the three),
and hybrid p50 over ARAGOG's questions once warm. **×**: restart / hybrid p50 over the smallest
size's with the same vectors (\`hashed\`: the offline model's; \`dense-1536\`: \`--dense\`, from a
local embeddings server).${note ? `\n\n${note}` : ""}

| chunks | vectors | ingest chunks/s | stop | left | checkpoint | restart | median | hybrid p50 | × smallest |
|---|---|---|---|---|---|---|---|---|---|
${table.join("\n")}
`;
}

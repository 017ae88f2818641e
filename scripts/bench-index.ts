/**
 * The embedded index at scale, through the real server: `main.ts` runs as its
 * own process (so its RSS is its own) on a fresh data directory, and chunks
 * go in through `POST /v1/documents` in batches of 100 documents of one chunk
 * each, built from ARAGOG text. At each size it measures one-document ingest
 * (against an empty index), searches per mode, searches held up by an ingest,
 * RSS, the log's size, and a restart's time to its first search.
 */
import { mulberry32 } from "../shared/random.ts";
import { readDataset } from "./retrieval-eval.ts";

export type SizeReport = {
  chunks: number;
  ingest_chunks_per_second: number;
  /** Mean batch time of the last tenth of the batches over the first tenth: 1 is steady. */
  ingest_last_over_first_tenth: number;
  one_document_ingest_ms: number;
  /** One-document ingest at this size over the same into an empty index. */
  one_document_over_empty: number;
  search_ms: Record<"dense" | "sparse" | "hybrid", { p50: number; p95: number }>;
  /** The worst extra wait of a hybrid search while a document is being ingested. */
  search_held_up_ms: number;
  rss_mb: number;
  /** The checkpoint and the log since, together. */
  storage_mb: number;
  restart_first_search_ms: number;
};

export type Server = { url: string; pid: number; stop(): Promise<void> };

const ROOT = new URL("../", import.meta.url).pathname;

/** What `deno task start` runs (its flags too: the V8 heap setting shapes RSS), after `deno`. */
export async function startTaskArgs(): Promise<string[]> {
  const config = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`));
  const [program, ...args] = String(config.tasks.start).split(/\s+/);
  if (program !== "deno") throw new Error(`deno task start does not run deno: ${program}`);
  return args;
}

/**
 * `heapMb`: V8's heap cap instead of the start task's (what docs/embedded-index.md advises for large
 * indexes).
 */
export async function startServer(
  dataDir: string,
  env: Record<string, string> = { DEMO_CORPUS: "false" },
  heapMb?: number,
): Promise<Server> {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = listener.addr.port;
  listener.close();
  const child = new Deno.Command(Deno.execPath(), {
    args: (await startTaskArgs()).map((arg) =>
      heapMb ? arg.replace(/--max-old-space-size=\d+/, `--max-old-space-size=${heapMb}`) : arg
    ),
    cwd: ROOT,
    env: { ...env, PORT: String(port), SIFT_DATA_DIR: dataDir, NO_COLOR: "1" },
    stdout: "null",
    stderr: "inherit",
  }).spawn();
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      const response = await fetch(`${url}/healthz`);
      await response.body?.cancel();
      if (response.ok) break;
    } catch { /* not yet */ }
    if (Date.now() > deadline) throw new Error("the server did not start");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url,
    pid: child.pid,
    stop: async () => {
      child.kill("SIGTERM");
      await child.status;
    },
  };
}

/**
 * Waits (up to 10 minutes) until `/healthz` no longer says `index.warming`:
 * a start serves searches before its larger arrays are in, and searches
 * timed meanwhile would measure the start, not the index.
 */
export async function untilWarm(url: string): Promise<void> {
  const deadline = Date.now() + 600_000;
  for (;;) {
    const response = await fetch(`${url}/healthz`);
    const body = await response.json() as { index?: { warming?: boolean } };
    if (response.ok && !body.index?.warming) return;
    if (Date.now() > deadline) throw new Error("the index was still warming after 10 minutes");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export function rssMb(pid: number): number {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

export async function post(url: string, path: string, body: unknown): Promise<unknown> {
  const response = await fetch(`${url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(120_000),
  });
  const json = await response.json();
  if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

export const quantile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))]!;
export const mean = (values: number[]) =>
  values.reduce((sum, value) => sum + value, 0) / values.length;

/** Documents of about 250 words cut from the corpus at random: one chunk each. */
export function makeDocuments(words: string[], seed: number) {
  const random = mulberry32(seed);
  let next = 0;
  return (count: number) =>
    Array.from({ length: count }, () => {
      const start = Math.floor(random() * (words.length - 260));
      const id = `synthetic-${next++}`;
      return {
        id,
        title: `Synthetic ${next % 97}`,
        text: words.slice(start, start + 250).join(" "),
      };
    });
}

export async function timed<T>(work: () => Promise<T>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

async function searchTimes(url: string, queries: string[]) {
  const result = {} as SizeReport["search_ms"];
  for (const mode of ["dense", "sparse", "hybrid"] as const) {
    const times: number[] = [];
    for (const query of queries) {
      times.push(await timed(() => post(url, "/v1/search", { query, mode, top_k: 10 })));
    }
    result[mode] = { p50: quantile(times, 0.5), p95: quantile(times, 0.95) };
  }
  return result;
}

/** Runs the sizes in increasing order on one growing index; returns one report per size. */
export async function benchIndex(sizes: number[], datasetDir: string): Promise<SizeReport[]> {
  const { documents, questions } = await readDataset(datasetDir);
  const words = documents.map((document) => document.text).join(" ").split(/\s+/);
  const queries = questions.slice(0, 40).map((question) => question.question);
  const nextDocuments = makeDocuments(words, 11);
  const dataDir = await Deno.makeTempDir({ prefix: "sift-bench-index-" });
  let server = await startServer(dataDir);
  const reports: SizeReport[] = [];
  try {
    const emptyTimes: number[] = [];
    await post(server.url, "/v1/documents", { documents: nextDocuments(1) }); // warm-up
    for (let i = 0; i < 5; i++) {
      emptyTimes.push(
        await timed(() => post(server.url, "/v1/documents", { documents: nextDocuments(1) })),
      );
    }
    const emptyOne = quantile(emptyTimes, 0.5);
    let held = 6;
    for (const size of [...sizes].sort((a, b) => a - b)) {
      const batches: number[] = [];
      const started = performance.now();
      while (held < size) {
        const batch = nextDocuments(Math.min(100, size - held));
        batches.push(await timed(() => post(server.url, "/v1/documents", { documents: batch })));
        held += batch.length;
      }
      const ingestSeconds = (performance.now() - started) / 1000;
      const tenth = Math.max(1, Math.floor(batches.length / 10));
      const search = await searchTimes(server.url, queries);
      // One document in, five times; meanwhile hybrid searches run back to back.
      const oneDocument: number[] = [];
      let worstHeld = 0;
      for (let i = 0; i < 5; i++) {
        let ingesting = true;
        const ingest = timed(() =>
          post(server.url, "/v1/documents", { documents: nextDocuments(1) })
        )
          .finally(() => (ingesting = false));
        while (ingesting) {
          const ms = await timed(() =>
            post(server.url, "/v1/search", { query: queries[i]!, mode: "hybrid", top_k: 10 })
          );
          worstHeld = Math.max(worstHeld, ms - search.hybrid.p50);
        }
        oneDocument.push(await ingest);
        held++;
      }
      const rss = rssMb(server.pid);
      const storageMb = [...Deno.readDirSync(dataDir)]
        .reduce((sum, entry) => sum + Deno.statSync(`${dataDir}/${entry.name}`).size, 0) / 1e6;
      await server.stop();
      const restartStarted = performance.now();
      server = await startServer(dataDir);
      await post(server.url, "/v1/search", { query: queries[0]!, mode: "hybrid", top_k: 10 });
      const restart = performance.now() - restartStarted;
      const report: SizeReport = {
        chunks: held,
        ingest_chunks_per_second: batches.length ? (batches.length * 100) / ingestSeconds : 0,
        ingest_last_over_first_tenth: batches.length >= 10
          ? mean(batches.slice(-tenth)) / mean(batches.slice(0, tenth))
          : 1,
        one_document_ingest_ms: quantile(oneDocument, 0.5),
        one_document_over_empty: quantile(oneDocument, 0.5) / emptyOne,
        search_ms: search,
        search_held_up_ms: Math.max(0, worstHeld),
        rss_mb: rss,
        storage_mb: storageMb,
        restart_first_search_ms: restart,
      };
      reports.push(report);
      console.error(`index at ${held} chunks: ${JSON.stringify(report)}`);
    }
  } finally {
    await server.stop();
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  }
  return reports;
}

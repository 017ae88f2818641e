/**
 * Throughput and CPU per request for `POST /v1/search` (hybrid, top 10) and
 * `POST /v2/rerank` (one-turn, 10 documents), under Deno (`main.ts`) and
 * under workerd (the all-in-one Worker in `wrangler dev`), over the demo
 * corpus with the offline model. A fixed number of clients send requests
 * back to back for a fixed time on loopback; CPU is the server processes'
 * user + system time over the same window (/proc), divided by the requests.
 * Bounded in time and count; loopback only.
 */
import { startWranglerDev } from "./wrangler-dev.ts";
import { startServer } from "./bench-index.ts";

export type LoadRow = {
  runtime: "deno" | "workerd";
  route: string;
  requests_per_second: number;
  cpu_ms_per_request: number;
  p50_ms: number;
};

const ROOT = new URL("../", import.meta.url).pathname;
const CLIENTS = 8;
const SECONDS = 5;
const TICKS_PER_SECOND = 100; // Linux's USER_HZ

const QUERIES = [
  "How does reciprocal rank fusion work?",
  "What is sift?",
  "How does reranking by several criteria work?",
  "Where does sift keep documents?",
];
const DOCUMENTS = Array.from(
  { length: 10 },
  (_, i) =>
    `Passage ${i}: reciprocal rank fusion adds one over k plus the rank, k = 60, for each of ${
      i + 2
    } rankings.`,
);

const ROUTES = {
  "/v1/search": (i: number) => ({ query: QUERIES[i % QUERIES.length], mode: "hybrid", top_k: 10 }),
  "/v2/rerank": (i: number) => ({
    model: "sift-one-turn",
    query: QUERIES[i % QUERIES.length],
    documents: DOCUMENTS,
    top_n: 3,
  }),
} as const;

/** user + system CPU time of the processes, in milliseconds. */
function cpuMs(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const fields = Deno.readTextFileSync(`/proc/${pid}/stat`).split(") ")[1]!.split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch { /* gone */ }
  }
  return (ticks / TICKS_PER_SECOND) * 1000;
}

async function load(url: string, route: keyof typeof ROUTES, pids: number[]) {
  const body = ROUTES[route];
  // Warm-up: caches filled, code compiled.
  for (let i = 0; i < 20; i++) await send(url, route, body(i));
  const times: number[] = [];
  const cpuBefore = cpuMs(pids);
  const started = performance.now();
  const deadline = started + SECONDS * 1000;
  let sent = 0;
  await Promise.all(Array.from({ length: CLIENTS }, async () => {
    while (performance.now() < deadline) {
      const at = performance.now();
      await send(url, route, body(sent++));
      times.push(performance.now() - at);
    }
  }));
  const elapsed = (performance.now() - started) / 1000;
  const cpu = cpuMs(pids) - cpuBefore;
  times.sort((a, b) => a - b);
  return {
    requests_per_second: times.length / elapsed,
    cpu_ms_per_request: cpu / times.length,
    p50_ms: times[times.length >> 1]!,
  };
}

async function send(url: string, route: string, body: unknown): Promise<void> {
  const response = await fetch(`${url}${route}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`${route}: ${response.status}`);
}

async function childPids(pid: number): Promise<number[]> {
  const { stdout } = await new Deno.Command("pgrep", { args: ["-g", String(pid)], stdout: "piped" })
    .output();
  return new TextDecoder().decode(stdout).trim().split("\n").filter(Boolean).map(Number);
}

/** `runtimes`: the ones to measure (both by default). */
export async function benchLoad(
  runtimes: readonly LoadRow["runtime"][] = ["deno", "workerd"],
): Promise<LoadRow[]> {
  const rows: LoadRow[] = [];
  if (!runtimes.includes("deno")) return [...rows, ...await benchWorkerd()];
  const dataDir = await Deno.makeTempDir({ prefix: "sift-bench-load-" });
  const deno = await startServer(dataDir, {});
  try {
    for (const route of Object.keys(ROUTES) as (keyof typeof ROUTES)[]) {
      rows.push({ runtime: "deno", route, ...await load(deno.url, route, [deno.pid]) });
    }
  } finally {
    await deno.stop();
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  }
  return runtimes.includes("workerd") ? [...rows, ...await benchWorkerd()] : rows;
}

async function benchWorkerd(): Promise<LoadRow[]> {
  const rows: LoadRow[] = [];
  const state = await Deno.makeTempDir({ prefix: "sift-bench-load-workerd-" });
  const workerd = await startWranglerDev(["wrangler.toml"], { persistTo: state, cwd: ROOT });
  try {
    await workerd.ready("/healthz");
    // wrangler's process group: wrangler itself, its proxy and workerd all serve a request.
    const pids = await childPids(workerd.pid);
    for (const route of Object.keys(ROUTES) as (keyof typeof ROUTES)[]) {
      rows.push({ runtime: "workerd", route, ...await load(workerd.baseUrl, route, pids) });
    }
  } finally {
    await workerd.stop();
    await Deno.remove(state, { recursive: true }).catch(() => {});
  }
  return rows;
}

if (import.meta.main) console.log(JSON.stringify(await benchLoad(), null, 2));

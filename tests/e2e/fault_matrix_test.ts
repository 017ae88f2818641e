/**
 * The fault matrix: every fault a dependency can throw at sift, against every
 * route family, in one table printed to the test output. Each cell is a fresh
 * app (its own index and cache) called with `app.request` and an env of its
 * own; the model is the offline model behind a loopback HTTP server whose
 * path picks a fault for chat and one for embeddings, so the real `openai`
 * SDK (retries, timeouts) sits between sift and the fault.
 *
 * The rules, asserted for every cell:
 * - no 5xx where sift can degrade; `HONEST_5XX` lists the cells where a 5xx
 *   is the truthful answer, each with its reason;
 * - every event stream ends in `done`;
 * - no acknowledged write is lost: an ingest answered 2xx is searchable
 *   afterwards, and a job answered 202 is kept with its result even when its
 *   callback cannot be delivered.
 */
import assert from "node:assert/strict";
import { createSiftApp } from "../../app.ts";
import { createOfflineModel, type OfflineModel } from "../../providers/offline/model.ts";
import { FAULT_KINDS, type FaultKind } from "../../shared/offline-knobs.ts";
import { readEvents } from "../routes/helpers.ts";
import { CORPUS } from "../routes/corpus.ts";
import { freePort } from "./service.ts";

type Kind = FaultKind | "ok";
type Fault =
  | { row: string; chat: Kind; embeddings: Kind }
  | { row: "cache store down" | "index down" | "callback receiver down" };

const ROUTES = ["query", "rerank", "chat", "judge", "evaluation", "ingest"] as const;
type Route = typeof ROUTES[number];

/** `http429` carries `retry-after: 0` (and `retry-after-ms`), which the SDK honours. */
const FAULTS: Fault[] = [
  ...FAULT_KINDS.map((kind) => ({ row: `model ${kind}`, chat: kind, embeddings: "ok" as const })),
  ...FAULT_KINDS.map((kind) => ({
    row: `embeddings ${kind}`,
    chat: "ok" as const,
    embeddings: kind,
  })),
  { row: "cache store down" },
  { row: "index down" },
  { row: "callback receiver down" },
];

/**
 * Where a 5xx is the honest answer: the route's product is the failing
 * dependency's output, and there is nothing true to return instead.
 */
const HONEST_5XX: Record<string, string> = {
  "model * · chat":
    "a non-streamed chat completion is the model's answer: no model, no answer (502/504)",
  "model * · judge": "a judgment is the judge model's verdict: a made-up score would be worse",
  "embeddings * · ingest":
    "chunks cannot be stored without their vectors: refusing beats acknowledging a write not made",
  "index down · ingest": "nothing was written: a 503 (retry later), never a 201",
  "cache store down · evaluation":
    "a run's record lives in the cache store: a 202 that no GET could find would lose it (503)",
  "index down · chat": "no passages can be retrieved, and the answer must cite them",
};

function honest5xx(row: string, route: Route): string | undefined {
  const family = row.split(" ")[0];
  return HONEST_5XX[`${row} · ${route}`] ?? HONEST_5XX[`${family} * · ${route}`];
}

type Cell = { outcome: string; degraded: boolean; status: number; lastEvent?: string };

const QUESTION = "How does reciprocal rank fusion score a document?";
const DOCUMENTS = CORPUS.slice(0, 3).map(({ id, text }) => ({ id, text }));

/** The offline model over HTTP; `/<chat kind>/<embeddings kind>/v1/...` picks the faults. */
function startProvider() {
  const models = new Map<Kind, OfflineModel>();
  const modelFor = (kind: Kind) => {
    let model = models.get(kind);
    if (!model) {
      model = createOfflineModel(kind === "ok" ? {} : { faults: `${kind}=1` });
      models.set(kind, model);
    }
    return model;
  };
  const stop = new AbortController();
  const options = { hostname: "127.0.0.1", port: 0, signal: stop.signal, onListen() {} };
  const server = Deno.serve(options, (request) => {
    const [, chat = "ok", embeddings = "ok"] = new URL(request.url).pathname.split("/");
    const isEmbeddings = request.url.includes("/embeddings");
    return modelFor((isEmbeddings ? embeddings : chat) as Kind).handle(request);
  });
  // Aborting does not wait for the `timeout` fault's replies, which never come.
  return { url: `http://127.0.0.1:${server.addr.port}`, close: () => stop.abort() };
}

const WEBHOOK_SECRET = "whsec_" + btoa("sift-fault-matrix-secret-0123456789");

function envFor(providerUrl: string, fault: Fault): Record<string, string> {
  const closed = `http://127.0.0.1:${freePort()}`;
  const chat = "chat" in fault ? fault.chat : "ok";
  const embeddings = "embeddings" in fault ? fault.embeddings : "ok";
  return {
    DEMO_CORPUS: "false",
    LLM_BASE_URL: `${providerUrl}/${chat}/${embeddings}/v1`,
    LLM_API_KEY: "fault-matrix",
    LLM_MODEL: "sift-offline",
    EMBEDDING_MODEL: "sift-hashed",
    // Short only where a call never answers: a healthy call beside it (embeddings in the
    // `model timeout` row) has 2 s, hundreds of times what it needs even on a loaded machine.
    LLM_TIMEOUT_MS: chat === "timeout" || embeddings === "timeout" ? "2000" : "30000",
    WEBHOOK_SECRET,
    ALLOW_PRIVATE_CALLBACKS: "true",
    JOB_MAX_ATTEMPTS: "2",
    JOB_RETRY_BASE_MS: "1",
    EVAL_SLICE_QUESTIONS: "5",
    ...(fault.row === "cache store down"
      ? { UPSTASH_REDIS_REST_URL: closed, UPSTASH_REDIS_REST_TOKEN: "t" }
      : {}),
    ...(fault.row === "index down"
      ? { UPSTASH_VECTOR_REST_URL: closed, UPSTASH_VECTOR_REST_TOKEN: "t" }
      : {}),
  };
}

type App = ReturnType<typeof createSiftApp>;

function caller(app: App, env: Record<string, string>) {
  return (path: string, body?: unknown) =>
    app.request(
      path,
      body === undefined ? {} : {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      },
      env,
    );
}

function mentionsDegraded(value: unknown): boolean {
  return JSON.stringify(value ?? null).includes('"degraded":true');
}

const ROUTE_REQUESTS: Record<Exclude<Route, "evaluation">, [string, unknown]> = {
  query: ["/v1/query", { query: QUESTION }],
  rerank: ["/v1/rerank", { query: QUESTION, documents: DOCUMENTS }],
  chat: ["/v1/chat/completions", {
    model: "sift-one-turn",
    messages: [{ role: "user", content: QUESTION }],
  }],
  judge: ["/v1/judge/answer", {
    query: QUESTION,
    answer: "It sums 1 / (k + rank) over the rankings [1].",
    documents: DOCUMENTS,
  }],
  ingest: ["/v1/documents", {
    documents: [{ id: "fresh", text: "Fault tolerance keeps acknowledged writes." }],
  }],
};

/** One route under the cell's env; the corpus was ingested healthy beforehand. */
async function runRoute(
  app: App,
  env: Record<string, string>,
  healthy: Record<string, string>,
  route: Route,
): Promise<Cell> {
  const call = caller(app, env);
  if (route === "evaluation") return await runEvaluation(call);
  const [path, body] = ROUTE_REQUESTS[route];
  const response = await call(path, body);
  if (response.headers.get("content-type")?.startsWith("text/event-stream")) {
    const events = await readEvents(response);
    const lastEvent = events.at(-1)?.event ?? "(none)";
    const names = events.map((event) => event.event);
    const failed = names.includes("error") ? "error," : "";
    return {
      status: response.status,
      lastEvent,
      outcome: `${response.status} …${failed}${lastEvent}`,
      degraded: events.some((event) => mentionsDegraded(event.data)),
    };
  }
  const reply = await response.json().catch(() => null);
  const cell = { status: response.status, outcome: String(response.status) };
  if (route === "ingest" && response.ok) await assertIngested(app, healthy, env);
  return { ...cell, degraded: mentionsDegraded(reply) };
}

/** An acknowledged ingest is there: searched with BM25 (which needs no model). */
async function assertIngested(
  app: App,
  healthy: Record<string, string>,
  env: Record<string, string>,
): Promise<void> {
  const indexEnv = env.UPSTASH_VECTOR_REST_URL ? env : healthy;
  const found = await caller(app, indexEnv)("/v1/search", {
    query: "acknowledged writes",
    mode: "sparse",
    filter: { doc_id: "fresh" },
  });
  const body = await found.json();
  assert.ok(body.results?.length > 0, "an ingest answered 2xx must be searchable");
}

async function runEvaluation(call: ReturnType<typeof caller>): Promise<Cell> {
  const started = await call("/v1/evaluations", {
    dataset: { questions: [{ question: QUESTION, target_doc: "rrf" }] },
    variants: "none",
  });
  if (started.status !== 202) {
    await started.body?.cancel();
    return { status: started.status, outcome: String(started.status), degraded: false };
  }
  const { id } = await started.json();
  let status = "running";
  let summary: unknown;
  for (let i = 0; i < 400 && status === "running"; i++) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    const reply = await (await call(`/v1/evaluations/${id}`)).json();
    status = reply.status;
    summary = reply;
  }
  return { status: 202, outcome: `202 → ${status}`, degraded: mentionsDegraded(summary) };
}

/** The callback row: the route runs as a job whose receiver is a closed loopback port. */
async function runJob(app: App, env: Record<string, string>, route: Route): Promise<Cell> {
  if (route === "evaluation") return { status: 0, outcome: "n/a", degraded: false };
  const call = caller(app, env);
  const [path, body] = ROUTE_REQUESTS[route];
  const accepted = await call("/v1/jobs", {
    route: path,
    body,
    callback_url: `http://127.0.0.1:${freePort()}/hook`,
  });
  assert.equal(accepted.status, 202, `${route}: a job is accepted`);
  const { id } = await accepted.json();
  let job: { status: string; result?: unknown; error?: { type: string } } = { status: "queued" };
  for (let i = 0; i < 400 && !(job.status === "failed" && job.error); i++) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    job = await (await call(`/v1/jobs/${id}`)).json();
  }
  assert.equal(job.error?.type, "delivery_failed", `${route}: ${JSON.stringify(job)}`);
  assert.ok(job.result !== undefined, `${route}: the job's result is kept`);
  return { status: 202, outcome: `202 → kept, ${job.error.type}`, degraded: false };
}

async function runCell(providerUrl: string, fault: Fault, route: Route): Promise<Cell> {
  const app = createSiftApp();
  const env = envFor(providerUrl, fault);
  const healthy = envFor(providerUrl, { row: "healthy", chat: "ok", embeddings: "ok" });
  const ingested = await caller(app, healthy)("/v1/documents", { documents: CORPUS });
  assert.equal(ingested.status, 201);
  if (fault.row === "callback receiver down") return await runJob(app, env, route);
  return await runRoute(app, env, healthy, route);
}

/** Runs `body` with the console quiet: failing dependencies log on purpose. */
async function quietly<T>(body: () => Promise<T>): Promise<T> {
  const { warn, error } = console;
  console.warn = console.error = () => {};
  try {
    return await body();
  } finally {
    Object.assign(console, { warn, error });
  }
}

function printTable(rows: { fault: string; cells: Cell[] }[]) {
  const header = ["fault", ...ROUTES];
  const text = (cell: Cell) => `${cell.outcome}${cell.degraded ? " degraded" : ""}`;
  const lines = [header, ...rows.map((row) => [row.fault, ...row.cells.map(text)])];
  const widths = header.map((_, i) => Math.max(...lines.map((line) => line[i]!.length)));
  const render = (line: string[]) =>
    line.map((value, i) => value.padEnd(widths[i]!)).join(" | ").trimEnd();
  console.log(
    ["", "Fault matrix (status, or …last stream events; 'degraded' where the reply says so)"]
      .concat([render(header), widths.map((w) => "-".repeat(w)).join("-|-")])
      .concat(lines.slice(1).map(render))
      .join("\n"),
  );
}

Deno.test({
  name: "fault matrix: no 5xx where sift can degrade, streams end in done, no write lost",
  // Cells time out on purpose: the SDK's aborted calls may still be settling when it ends.
  sanitizeOps: false,
  sanitizeResources: false,
}, async () => {
  const provider = startProvider();
  const started = performance.now();
  try {
    const rows = await quietly(() =>
      Promise.all(FAULTS.map(async (fault) => ({
        fault: fault.row,
        cells: await Promise.all(ROUTES.map((route) => runCell(provider.url, fault, route))),
      })))
    );
    printTable(rows);
    console.log(`(${((performance.now() - started) / 1000).toFixed(1)} s)`);
    const broken: string[] = [];
    for (const row of rows) {
      row.cells.forEach((cell, i) => {
        const route = ROUTES[i]!;
        const where = `${row.fault} · ${route}`;
        if (cell.status >= 500 && !honest5xx(row.fault, route)) {
          broken.push(`${where}: ${cell.outcome}`);
        }
        if (cell.lastEvent !== undefined && cell.lastEvent !== "done") {
          broken.push(`${where}: the stream ended in ${cell.lastEvent}`);
        }
      });
    }
    assert.deepEqual(broken, [], "cells that break the rules");
  } finally {
    provider.close();
  }
});

/**
 * What composing functions over the wire costs: the time to the first
 * `answer-delta` of `POST /v1/query`, with every step in-process against the
 * same steps over HTTP (Deno, each function on its own loopback server) and
 * through service bindings (workerd, every function its own Worker, against
 * the all-in-one Worker). One run, same machine, same queries, alternating,
 * so the differences are what the transports add.
 *
 *   deno task bench:transports [--runs 30]
 */
import { fileURLToPath } from "node:url";
import { createSiftApp } from "../app.ts";
import { createAnswerServer } from "../functions/answer/server.ts";
import { createFuseServer } from "../functions/fuse/server.ts";
import { createGenerateRubricServer } from "../functions/generate-rubric/server.ts";
import { createRerankServer } from "../functions/rerank/server.ts";
import { readServerSentEvents } from "../shared/http/event-reader.ts";
import { Runtime } from "../compose/runtime.ts";
import { startWranglerDev, type WranglerDev } from "./wrangler-dev.ts";
import { WORKER_CONFIGS } from "./workers.ts";
import { type Command, commandArgs, usageMistake } from "../cli/cli.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const COMMAND = {
  usage: "deno task bench:transports [--runs N]",
  about:
    `Time to the first answer-delta of POST /v1/query with every step in-process, over HTTP (each
function on its own loopback server) and through service bindings (wrangler dev), alternating in
one run. Starts loopback servers and wrangler dev; needs no network beyond this machine.`,
  flags: {
    runs: { type: "string", value: "N", help: "timed queries per transport", default: "30" },
  },
} satisfies Command;

const { values, positionals } = commandArgs(COMMAND);
if (positionals.length) usageMistake(COMMAND, `unexpected argument ${positionals[0]}`);
const RUNS = Number(values.runs ?? 30);
if (!Number.isInteger(RUNS) || RUNS < 1) {
  usageMistake(COMMAND, "--runs must be a whole number above 0");
}
const WARMUP = 3;

const PIPELINES = {
  "retrieval + answer": {},
  "fusion + two-turn": { retrieval: { fusion: true }, rerank: { strategy: "two-turn" } },
} as const;
const QUERIES = [
  "What is sift?",
  "How does reciprocal rank fusion work?",
  "How does reranking by several criteria work?",
  "What does the offline model do?",
];

type Target = { label: string; url: string };

/** Milliseconds from sending the request to the first answer-delta, then reads to the end. */
async function timeToFirstDelta(url: string, query: string, pipeline: unknown): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${url}/v1/query`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query, pipeline }),
    signal: AbortSignal.timeout(30_000),
  });
  let first: number | undefined;
  for await (const { event, data } of readServerSentEvents(response.body!)) {
    if (event === "answer-delta" && first === undefined) first = performance.now() - started;
    if (event === "error") throw new Error(`${url}: ${JSON.stringify(data)}`);
  }
  if (first === undefined) throw new Error(`${url}: no answer-delta`);
  return first;
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

/** Serves an app on a free loopback port in this process. */
function serve(
  app: { fetch(request: Request, env: Record<string, unknown>): Response | Promise<Response> },
  env: Record<string, string>,
) {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (request) => app.fetch(request, env),
  );
  return { url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

async function measure(pair: [Target, Target]) {
  const rows: string[] = [];
  for (const [name, pipeline] of Object.entries(PIPELINES)) {
    const samples = new Map(pair.map((target) => [target.label, [] as number[]]));
    for (let run = 0; run < WARMUP + RUNS; run++) {
      const query = QUERIES[run % QUERIES.length]!;
      // Alternate which goes first, so neither always meets a warmer machine.
      const order = run % 2 === 0 ? pair : [pair[1], pair[0]];
      for (const target of order) {
        const ms = await timeToFirstDelta(target.url, query, pipeline);
        if (run >= WARMUP) samples.get(target.label)!.push(ms);
      }
    }
    const [base, other] = pair.map((target) => samples.get(target.label)!);
    const median = (values: number[]) => quantile(values, 0.5);
    rows.push(
      `| ${name} | ${pair[0].label} ${median(base!).toFixed(1)} ms (p90 ${
        quantile(base!, 0.9).toFixed(1)
      }) | ${pair[1].label} ${median(other!).toFixed(1)} ms (p90 ${
        quantile(other!, 0.9).toFixed(1)
      }) | +${(median(other!) - median(base!)).toFixed(1)} ms (×${
        (median(other!) / median(base!)).toFixed(2)
      }) |`,
    );
  }
  return rows;
}

async function denoRows(): Promise<string[]> {
  const env = { DEMO_CORPUS: "true" };
  const functions = [
    ["FUSE", serve(createFuseServer(new Runtime()), env)],
    ["GENERATE_RUBRIC", serve(createGenerateRubricServer(new Runtime()), env)],
    ["RERANK", serve(createRerankServer(new Runtime()), env)],
    ["ANSWER", serve(createAnswerServer(new Runtime()), env)],
  ] as const;
  const inProcess = serve(createSiftApp(), env);
  const overHttp = serve(createSiftApp(), {
    ...env,
    ...Object.fromEntries(functions.map(([name, server]) => [`STEP_URL_${name}`, server.url])),
  });
  try {
    return await measure([
      { label: "in-process", url: inProcess.url },
      { label: "http", url: overHttp.url },
    ]);
  } finally {
    await Promise.all(
      [inProcess, overHttp, ...functions.map(([, server]) => server)].map((s) => s.close()),
    );
  }
}

async function workerdRows(): Promise<string[]> {
  const state = await Deno.makeTempDir({ prefix: "sift-bench-" });
  const devs: WranglerDev[] = [];
  try {
    const [allInOne, perFunction] = await Promise.all([
      startWranglerDev(["wrangler.toml"], { persistTo: `${state}/all`, cwd: ROOT }),
      startWranglerDev(WORKER_CONFIGS, { persistTo: `${state}/split`, cwd: ROOT }),
    ]);
    devs.push(allInOne, perFunction);
    await Promise.all(devs.map((dev) => dev.ready("/healthz")));
    return await measure([
      { label: "in-process", url: allInOne.baseUrl },
      { label: "binding", url: perFunction.baseUrl },
    ]);
  } finally {
    await Promise.all(devs.map((dev) => dev.stop()));
    await Deno.remove(state, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) {
  console.log(`time to first answer-delta, median of ${RUNS} runs per cell (offline model)\n`);
  console.log("| pipeline | baseline | composed | difference |\n|---|---|---|---|");
  console.log("| **Deno** | | | |");
  for (const row of await denoRows()) console.log(row);
  console.log("| **workerd (wrangler dev)** | | | |");
  for (const row of await workerdRows()) console.log(row);
}

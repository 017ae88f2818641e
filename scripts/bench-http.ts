/**
 * What sift's HTTP server costs beside `Deno.serve` alone: requests per second
 * and server CPU per request for `GET /healthz` and sparse `POST /v1/search`
 * on `main.ts`, and for a trivial `Deno.serve` handler in its own process, in
 * one run, alternating, with a keep-alive client and with `Connection: close`
 * (a new connection per request). Beside them:
 * - the routes through `app.fetch` in this process with no HTTP at all (on an
 *   index of the same kind as the server's): the routes' own work;
 * - the same trivial process answering the search's exact request with the
 *   search's exact reply bytes ("replay"), and doing so after spinning for the
 *   search's own work ("replay + own work"): what `Deno.serve` alone costs for
 *   this exchange, and the most any change to sift's HTTP path could reach
 *   without making the search itself cheaper.
 * The client is wrk (Debian's `wrk`) when installed, else a Deno client. CPU is
 * the server process's user + system time (/proc/<pid>/stat) over the same
 * window, divided by its requests. Loopback only, bounded in time.
 *
 *   deno task bench:http [--seconds 5] [--rounds 2]
 */
import { createSiftApp } from "../app.ts";
import { indexLogIn } from "../adapters/deno/data-dir.ts";
import { startServer } from "./bench-index.ts";
import { type Command, commandArgs, usageMistake } from "../cli/cli.ts";

const COMMAND = {
  usage: "deno task bench:http [options]",
  about:
    `sift's HTTP server beside a trivial Deno.serve handler, in one run: requests/s and server CPU per
request for GET /healthz and sparse POST /v1/search, with a keep-alive client and with
Connection: close (wrk when installed, else a Deno client). Loopback only.`,
  flags: {
    seconds: { type: "string", value: "N", help: "seconds per measurement", default: "5" },
    rounds: { type: "string", value: "N", help: "rounds, alternating the servers", default: "2" },
  },
} satisfies Command;

export type HttpRow = {
  /** `keep-alive` (one connection per client, reused) or `close` (a connection per request). */
  client: "keep-alive" | "close";
  target: "trivial" | "sift /healthz" | "sift /v1/search" | typeof REPLAY | typeof REPLAY_WORK;
  requests_per_second: number;
  cpu_ms_per_request: number;
};

export type HttpReport = {
  tool: string;
  seconds: number;
  rounds: number;
  rows: HttpRow[];
  /** `app.fetch` with no HTTP, CPU ms per request: each route's own work in sift. */
  in_process_ms: { "/healthz": number; "/v1/search": number };
};

const TICKS_PER_SECOND = 100; // Linux's USER_HZ
/** The trivial process answering the search's request with the search's reply bytes. */
const REPLAY = "trivial, search's reply";
/** The same, after spinning for as long as the search's own work takes in-process. */
const REPLAY_WORK = "trivial, search's reply + own work";
const CONNECTIONS = 8;
const SEARCH = { query: "How does reciprocal rank fusion work?", mode: "sparse", top_k: 10 };

/** user + system CPU time of a process (`self` for this one), in milliseconds. */
function cpuMs(pid: number | "self"): number {
  const fields = Deno.readTextFileSync(`/proc/${pid}/stat`).split(") ")[1]!.split(" ");
  return ((Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND) * 1000;
}

function findWrk(): string | undefined {
  for (const dir of [...(Deno.env.get("PATH") ?? "").split(":"), "/usr/bin"]) {
    try {
      if (dir && Deno.statSync(`${dir}/wrk`).isFile) return `${dir}/wrk`;
    } catch { /* not here */ }
  }
  return undefined;
}

type Load = { requests: number; seconds: number };
type Request = { path: string; body?: unknown };

/** wrk: 1 thread, CONNECTIONS connections; a Lua script for the POST body. */
async function wrkLoad(
  wrk: string,
  url: string,
  request: Request,
  close: boolean,
  seconds: number,
) {
  const script = await Deno.makeTempFile({ suffix: ".lua" });
  const lines = request.body === undefined ? [] : [
    'wrk.method = "POST"',
    `wrk.body = ${JSON.stringify(JSON.stringify(request.body))}`,
    'wrk.headers["content-type"] = "application/json"',
  ];
  if (close) lines.push('wrk.headers["connection"] = "close"');
  await Deno.writeTextFile(script, lines.join("\n"));
  const { stdout, success } = await new Deno.Command(wrk, {
    args: ["-t1", `-c${CONNECTIONS}`, `-d${seconds}s`, "-s", script, `${url}${request.path}`],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  await Deno.remove(script);
  const text = new TextDecoder().decode(stdout);
  if (!success) throw new Error(`wrk failed:\n${text}`);
  const requests = Number(/(\d+) requests in ([\d.]+)(m?s)/.exec(text)?.[1]);
  const [, , amount, unit] = /(\d+) requests in ([\d.]+)(m?s)/.exec(text) ?? [];
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(text)?.[1] ?? 0);
  if (non2xx > 0) throw new Error(`${request.path}: ${non2xx} non-2xx answers:\n${text}`);
  return { requests, seconds: Number(amount) / (unit === "ms" ? 1000 : 1) };
}

/** The Deno fallback: CONNECTIONS clients back to back (fetch keeps connections alive). */
async function denoLoad(url: string, request: Request, close: boolean, seconds: number) {
  const started = performance.now();
  const deadline = started + seconds * 1000;
  let requests = 0;
  await Promise.all(Array.from({ length: CONNECTIONS }, async () => {
    while (performance.now() < deadline) {
      const response = await fetch(`${url}${request.path}`, {
        method: request.body === undefined ? "GET" : "POST",
        headers: {
          ...(request.body === undefined ? {} : { "content-type": "application/json" }),
          ...(close ? { connection: "close" } : {}),
        },
        ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
      });
      await response.arrayBuffer();
      if (!response.ok) throw new Error(`${request.path}: ${response.status}`);
      requests++;
    }
  }));
  return { requests, seconds: (performance.now() - started) / 1000 };
}

/**
 * CPU ms per request of `app.fetch` in this process, one env object throughout (as the
 * server's), on an embedded index in `dataDir` as the server's is (its texts read from the
 * checkpoint). Measured over at least `MIN_IN_PROCESS_MS` of wall time after a warm-up long
 * enough for V8 to optimise the path: CPU comes in 10 ms ticks.
 */
async function inProcessMs(request: Request, dataDir: string): Promise<number> {
  const log = indexLogIn(dataDir);
  const app = createSiftApp({ log });
  const env = Deno.env.toObject();
  const call = async () => {
    const response = await app.fetch(
      new Request(`http://localhost${request.path}`, {
        method: request.body === undefined ? "GET" : "POST",
        ...(request.body === undefined ? {} : {
          headers: { "content-type": "application/json" },
          body: JSON.stringify(request.body),
        }),
      }),
      env,
    );
    await response.arrayBuffer();
    return response.status;
  };
  try {
    // The index loads in the background (503 "loading" until then).
    const deadline = Date.now() + 60_000;
    for (let status = await call(); status !== 200; status = await call()) {
      if (Date.now() > deadline) throw new Error(`${request.path}: ${status} in-process`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    for (let i = 0; i < 3000; i++) await call(); // demo corpus loaded, code optimised
    const before = cpuMs("self");
    const started = performance.now();
    let count = 0;
    while (performance.now() - started < MIN_IN_PROCESS_MS) {
      for (let i = 0; i < 500; i++) await call();
      count += 500;
    }
    return (cpuMs("self") - before) / count;
  } finally {
    await log.close();
  }
}

const MIN_IN_PROCESS_MS = 2000;

/**
 * `/` answers "ok". `/replay` reads the request's body and answers with the bytes of the file
 * named by the second argument; `/replay-work` spins for the third argument's µs first.
 */
const TRIVIAL_SERVER = `
const [port, replyFile, workUs] = Deno.args;
const reply = Deno.readFileSync(replyFile);
const headers = { "content-type": "application/json" };
Deno.serve({ hostname: "127.0.0.1", port: Number(port), onListen() {} }, async (request) => {
  const path = new URL(request.url).pathname;
  if (path === "/") return new Response("ok");
  await request.arrayBuffer();
  if (path === "/replay-work") {
    const until = performance.now() + Number(workUs) / 1000;
    while (performance.now() < until) { /* the search's own work */ }
  }
  return new Response(reply, { headers });
});
`;

async function startTrivial(
  replyFile: string,
  workMs: number,
): Promise<{ url: string; pid: number; stop: () => Promise<void> }> {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = listener.addr.port;
  listener.close();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["eval", TRIVIAL_SERVER, String(port), replyFile, String(Math.round(workMs * 1000))],
    stdout: "null",
    stderr: "inherit",
  }).spawn();
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  while (true) {
    try {
      await (await fetch(url)).arrayBuffer();
      break;
    } catch {
      if (Date.now() > deadline) throw new Error("the trivial server did not start");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
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

export async function benchHttp(
  options: { seconds?: number; rounds?: number } = {},
): Promise<HttpReport> {
  const seconds = options.seconds ?? 5;
  const rounds = options.rounds ?? 2;
  const wrk = findWrk();
  const dataDir = await Deno.makeTempDir({ prefix: "sift-bench-http-" });
  const replyFile = `${dataDir}/search-reply.json`;
  // First, alone on the machine: each route's own work, on a directory of its own (the
  // server's is locked by the server).
  const inProcess = {
    "/healthz": await inProcessMs({ path: "/healthz" }, `${dataDir}/in-process`),
    "/v1/search": await inProcessMs({ path: "/v1/search", body: SEARCH }, `${dataDir}/in-process`),
  };
  // The demo corpus (the default) gives the sparse search something to find.
  const sift = await startServer(`${dataDir}/server`, {});
  let trivial: Awaited<ReturnType<typeof startTrivial>> | undefined;
  const sums = new Map<string, { requests: number; seconds: number; cpu: number }>();
  try {
    const reply = await fetch(`${sift.url}/v1/search`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(SEARCH),
    });
    if (!reply.ok) throw new Error(`/v1/search: ${reply.status}`);
    await Deno.writeFile(replyFile, new Uint8Array(await reply.arrayBuffer()));
    trivial = await startTrivial(replyFile, inProcess["/v1/search"]);
    const search = { path: "/v1/search", body: SEARCH };
    const targets: { target: HttpRow["target"]; url: string; pid: number; request: Request }[] = [
      { target: "trivial", url: trivial.url, pid: trivial.pid, request: { path: "/" } },
      { target: "sift /healthz", url: sift.url, pid: sift.pid, request: { path: "/healthz" } },
      { target: "sift /v1/search", url: sift.url, pid: sift.pid, request: search },
      {
        target: REPLAY,
        url: trivial.url,
        pid: trivial.pid,
        request: { ...search, path: "/replay" },
      },
      {
        target: REPLAY_WORK,
        url: trivial.url,
        pid: trivial.pid,
        request: { ...search, path: "/replay-work" },
      },
    ];
    for (let round = 0; round < rounds; round++) {
      for (const close of [false, true]) {
        for (const { target, url, pid, request } of targets) {
          const run = (s: number) =>
            wrk ? wrkLoad(wrk, url, request, close, s) : denoLoad(url, request, close, s);
          await run(1); // warm-up
          const before = cpuMs(pid);
          const load: Load = await run(seconds);
          const cpu = cpuMs(pid) - before;
          const key = `${close ? "close" : "keep-alive"}|${target}`;
          const sum = sums.get(key) ?? { requests: 0, seconds: 0, cpu: 0 };
          sums.set(key, {
            requests: sum.requests + load.requests,
            seconds: sum.seconds + load.seconds,
            cpu: sum.cpu + cpu,
          });
          console.error(`round ${round + 1}: ${key}: ${load.requests} requests`);
        }
      }
    }
  } finally {
    await sift.stop();
    await trivial?.stop();
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  }
  const rows: HttpRow[] = [...sums].map(([key, sum]) => {
    const [client, target] = key.split("|") as [HttpRow["client"], HttpRow["target"]];
    return {
      client,
      target,
      requests_per_second: sum.requests / sum.seconds,
      cpu_ms_per_request: sum.cpu / sum.requests,
    };
  });
  return { tool: wrk ? "wrk" : "deno fetch", seconds, rounds, rows, in_process_ms: inProcess };
}

/** The table BENCHMARKS.md shows: each row beside the trivial handler, same client. */
export function httpTable(report: HttpReport): string {
  const trivial = (client: string) =>
    report.rows.find((row) => row.client === client && row.target === "trivial")!;
  const lines = [
    "| client | server | requests/s | × trivial | CPU per request | × trivial | × (trivial + own work) |",
    "|---|---|---|---|---|---|---|",
  ];
  for (const row of report.rows) {
    const base = trivial(row.client);
    const own = row.target === "sift /healthz"
      ? report.in_process_ms["/healthz"]
      : row.target === "sift /v1/search" || row.target === REPLAY_WORK
      ? report.in_process_ms["/v1/search"]
      : 0;
    const fair = row.target === "trivial"
      ? "–"
      : `${(row.cpu_ms_per_request / (base.cpu_ms_per_request + own)).toFixed(2)}`;
    lines.push(
      `| ${row.client} | ${row.target} | ${Math.round(row.requests_per_second)} | ${
        (row.requests_per_second / base.requests_per_second).toFixed(2)
      } | ${(row.cpu_ms_per_request * 1000).toFixed(0)} µs | ${
        (row.cpu_ms_per_request / base.cpu_ms_per_request).toFixed(2)
      } | ${fair} |`,
    );
  }
  return lines.join("\n");
}

/** Issue #44's targets, keep-alive: at least these fractions of the trivial handler's requests/s. */
export const HTTP_TARGETS = { "sift /healthz": 0.3, "sift /v1/search": 0.15 } as const;

/** One line per target: the ratio measured, the target, and whether it was met. */
export function httpTargets(report: HttpReport): string[] {
  const keepAlive = report.rows.filter((row) => row.client === "keep-alive");
  const trivial = keepAlive.find((row) => row.target === "trivial");
  if (!trivial) return [];
  return Object.entries(HTTP_TARGETS).flatMap(([target, wanted]) => {
    const row = keepAlive.find((candidate) => candidate.target === target);
    if (!row) return [];
    const ratio = row.requests_per_second / trivial.requests_per_second;
    return [
      `${target}: ${ratio.toFixed(2)} × the trivial handler's requests/s with keep-alive ` +
      `(target ≥ ${wanted}): ${ratio >= wanted ? "met" : "BELOW"}`,
    ];
  });
}

if (import.meta.main) {
  const { values, positionals } = commandArgs(COMMAND);
  if (positionals.length) usageMistake(COMMAND, `unexpected argument ${positionals[0]}`);
  const seconds = Number(values.seconds ?? 5);
  const rounds = Number(values.rounds ?? 2);
  for (const [name, value] of [["seconds", seconds], ["rounds", rounds]] as const) {
    if (!Number.isInteger(value) || value < 1) {
      usageMistake(COMMAND, `--${name} must be a whole number above 0`);
    }
  }
  if (!findWrk()) {
    console.error(
      "wrk is not on PATH: the client is Deno's fetch, which shares the CPU with the servers and " +
        "caps the trivial handler (apt-get install wrk for the issue's figures)",
    );
  }
  const report = await benchHttp({ seconds, rounds });
  console.log(JSON.stringify(report, null, 2));
  console.log(
    `\n${report.tool}, ${CONNECTIONS} connections, ${report.seconds} s × ${report.rounds} rounds`,
  );
  console.log(
    `own work in-process: /healthz ${
      (report.in_process_ms["/healthz"] * 1000).toFixed(0)
    } µs, /v1/search ${(report.in_process_ms["/v1/search"] * 1000).toFixed(0)} µs\n`,
  );
  console.log(httpTable(report));
  console.log(`\n${httpTargets(report).join("\n")}`);
}

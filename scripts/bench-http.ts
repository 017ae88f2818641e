/**
 * What sift's HTTP server costs beside `Deno.serve` alone: requests per second
 * and server CPU per request for `GET /healthz` and sparse `POST /v1/search`
 * on `main.ts`, and for a trivial `Deno.serve` handler in its own process, in
 * one run, alternating, with a keep-alive client and with `Connection: close`
 * (a new connection per request). Beside them, the same routes through
 * `app.fetch` in this process with no HTTP at all: the routes' own work. The
 * client is wrk (Debian's `wrk`) when installed, else a Deno client. CPU is
 * the server process's user + system time (/proc/<pid>/stat) over the same
 * window, divided by its requests. Loopback only, bounded in time.
 *
 *   deno task bench:http [--seconds 5] [--rounds 2]
 */
import { createSiftApp } from "../app.ts";
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
  target: "trivial" | "sift /healthz" | "sift /v1/search";
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

/** CPU ms per request of `app.fetch` in this process, one env object throughout (as the server's). */
async function inProcessMs(request: Request): Promise<number> {
  const app = createSiftApp();
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
  };
  for (let i = 0; i < 300; i++) await call(); // demo corpus loaded, code compiled
  const count = 3000;
  const before = cpuMs("self");
  for (let i = 0; i < count; i++) await call();
  return (cpuMs("self") - before) / count;
}

const TRIVIAL_SERVER = `
const port = Number(Deno.args[0]);
Deno.serve({ hostname: "127.0.0.1", port, onListen() {} }, () => new Response("ok"));
`;

async function startTrivial(): Promise<{ url: string; pid: number; stop: () => Promise<void> }> {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = listener.addr.port;
  listener.close();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["eval", TRIVIAL_SERVER, String(port)],
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
  // The demo corpus (the default) gives the sparse search something to find.
  const sift = await startServer(dataDir, {});
  const trivial = await startTrivial();
  const targets: { target: HttpRow["target"]; url: string; pid: number; request: Request }[] = [
    { target: "trivial", url: trivial.url, pid: trivial.pid, request: { path: "/" } },
    { target: "sift /healthz", url: sift.url, pid: sift.pid, request: { path: "/healthz" } },
    {
      target: "sift /v1/search",
      url: sift.url,
      pid: sift.pid,
      request: { path: "/v1/search", body: SEARCH },
    },
  ];
  const sums = new Map<string, { requests: number; seconds: number; cpu: number }>();
  try {
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
    await trivial.stop();
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
  const inProcess = {
    "/healthz": await inProcessMs({ path: "/healthz" }),
    "/v1/search": await inProcessMs({ path: "/v1/search", body: SEARCH }),
  };
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
      : row.target === "sift /v1/search"
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

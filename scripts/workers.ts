/**
 * The per-function Workers, together:
 *
 *   deno task workers:dev     every Worker in one local workerd (offline), the
 *                             orchestrator on PORT (default 8787); a `.dev.vars`
 *                             at the project's root goes to every Worker
 *   deno task worker:dev      the all-in-one Worker alone, on PORT (default 8787)
 *   deno task workers:check   `wrangler deploy --dry-run` for each Worker: its
 *                             gzipped size against its budget; --startup adds
 *                             its start-up CPU time (`wrangler check startup`)
 */
import { fileURLToPath } from "node:url";
import { type Command, commandArgs, usageMistake } from "../cli/cli.ts";
import { configsWithVars, parseDevVars } from "./wrangler-vars.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const WRANGLER = "npm:wrangler@4.156.0";

/** The orchestrator first: `wrangler dev` serves the first config on its port. */
export const WORKER_CONFIGS = [
  "functions/orchestrator/wrangler.toml",
  "functions/embed/wrangler.toml",
  "functions/fuse/wrangler.toml",
  "functions/generate-rubric/wrangler.toml",
  "functions/rerank/wrangler.toml",
  "functions/answer/wrangler.toml",
  "functions/judge/wrangler.toml",
  "functions/evaluate/wrangler.toml",
  "workers/state/wrangler.toml",
];

/**
 * The Workers that parse uploaded files: they bundle the embed function, and
 * with it pdf.js (unpdf's serverless build, about 2.4 MB of the bundle before
 * compression, imported on the first PDF only).
 */
export const PARSING_CONFIGS = ["wrangler.toml", "functions/embed/wrangler.toml"];

/** Cloudflare's limits on a Worker's compressed size: 3 MiB on the free plan, 10 MiB paid. */
export const FREE_PLAN_BYTES = 3 * 1024 * 1024;
export const PAID_PLAN_BYTES = 10 * 1024 * 1024;
/**
 * sift's own budget for a Worker that parses no files: 1 MiB compressed, so
 * a dependency that creeps in (a parser, a second SDK) shows here first.
 */
export const NON_PARSING_BYTES = 1024 * 1024;

/** The compressed size a Worker must stay under. */
export function budgetBytes(config: string): number {
  return PARSING_CONFIGS.includes(config) ? FREE_PLAN_BYTES : NON_PARSING_BYTES;
}

function wrangler(args: string[], options: { capture?: boolean } = {}) {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", WRANGLER, ...args],
    cwd: ROOT,
    env: {
      WRANGLER_SEND_METRICS: "false",
      WRANGLER_SEND_ERROR_REPORTS: "false",
      // No fetch of Cloudflare's request metadata at start-up: nothing here needs the network.
      CLOUDFLARE_CF_FETCH_ENABLED: "false",
    },
    stdin: options.capture ? "null" : "inherit",
    stdout: options.capture ? "piped" : "inherit",
    stderr: options.capture ? "piped" : "inherit",
  });
}

/** The root `.dev.vars`, if there is one. */
async function rootDevVars(): Promise<Record<string, string>> {
  try {
    return parseDevVars(await Deno.readTextFile(`${ROOT}/.dev.vars`));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return {};
    throw error;
  }
}

async function dev(workers: readonly string[]): Promise<number> {
  const port = Deno.env.get("PORT") ?? "8787";
  const vars = await rootDevVars();
  let configs = [...workers];
  if (Object.keys(vars).length > 0) {
    // wrangler gives a root .dev.vars to the first Worker only: every Worker gets it here.
    const directory = `${ROOT}/.wrangler/dev-configs`;
    await Deno.mkdir(directory, { recursive: true });
    configs = await configsWithVars(workers, vars, directory, ROOT);
    console.log(`.dev.vars (${Object.keys(vars).join(", ")}) given to every Worker`);
  }
  const args = ["dev", ...configs.flatMap((config) => ["-c", config])];
  args.push("--port", port, "--ip", Deno.env.get("HOST") ?? "127.0.0.1");
  args.push("--persist-to", Deno.env.get("SIFT_WRANGLER_STATE") ?? ".wrangler/state");
  args.push("--show-interactive-dev-session=false");
  const child = wrangler(args).spawn();
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    Deno.addSignalListener(signal, () => child.kill(signal));
  }
  return (await child.status).code;
}

/** The gzipped size wrangler reports for one bundle, in bytes. */
export function gzipBytes(output: string): number | undefined {
  const match = /gzip:\s*([\d.]+)\s*(KiB|MiB)/.exec(output);
  if (!match) return undefined;
  return Number(match[1]) * (match[2] === "MiB" ? 1024 * 1024 : 1024);
}

/** The CPU time `wrangler check startup` measured for the Worker's start, in ms. */
export function startupActiveMs(output: string): number | undefined {
  const match = /Active:\s*([\d.]+)\s*ms/.exec(output);
  return match ? Number(match[1]) : undefined;
}

export type WorkerSize = {
  name: string;
  config: string;
  /** Compressed size, null when the dry run failed. */
  gzip_kib: number | null;
  /** Whether it parses uploaded files (and so carries pdf.js). */
  parses_files: boolean;
  /** CPU time of the Worker's start (its modules' top level), measured locally by workerd. */
  startup_ms?: number | null;
};

const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/** The name a wrangler config gives its Worker. */
async function workerName(config: string): Promise<string> {
  return /^name = "([^"]+)"/m.exec(await Deno.readTextFile(`${ROOT}/${config}`))?.[1] ?? config;
}

/**
 * `wrangler deploy --dry-run` of every Worker (or those named in `only`): its
 * gzipped size; with `startup`, also `wrangler check startup` on the same
 * bundle for its start-up CPU time. Nothing leaves the machine.
 */
export async function workerSizes(
  options: { startup?: boolean; only?: readonly string[] } = {},
): Promise<WorkerSize[]> {
  const sizes: WorkerSize[] = [];
  const outDir = await Deno.makeTempDir({ prefix: "sift-workers-" });
  try {
    for (const config of ["wrangler.toml", ...WORKER_CONFIGS]) {
      const name = await workerName(config);
      if (options.only && !options.only.includes(name)) continue;
      const bundle = `${outDir}/${config.replaceAll("/", "_")}.bundle`;
      const dry = await wrangler(["deploy", "--dry-run", "-c", config, "--outfile", bundle], {
        capture: true,
      }).output();
      const output = decode(dry.stdout) + decode(dry.stderr);
      const gzip = dry.code === 0 ? gzipBytes(output) : undefined;
      if (gzip === undefined) console.error(`${name}: dry run failed (${config})\n${output}`);
      const row: WorkerSize = {
        name,
        config,
        gzip_kib: gzip === undefined ? null : Math.round(gzip / 1024 * 100) / 100,
        parses_files: PARSING_CONFIGS.includes(config),
      };
      if (options.startup && gzip !== undefined) row.startup_ms = await startupMs(config, bundle);
      sizes.push(row);
    }
  } finally {
    await Deno.remove(outDir, { recursive: true }).catch(() => {});
  }
  return sizes;
}

/** Profiles per Worker: the least of them is its start-up time (a busy machine only adds). */
export const STARTUP_RUNS = 3;

/**
 * `wrangler check startup` of a built bundle, `STARTUP_RUNS` times: the least
 * CPU time its start took (null when every run failed). Other processes on
 * the machine only ever add to a run, so the minimum is the figure to compare.
 */
async function startupMs(config: string, bundle: string): Promise<number | null> {
  const runs: number[] = [];
  let failure = "";
  // wrangler gives a profile 10 s: on a loaded machine a run can time out, so a few more tries.
  for (let run = 0; run < STARTUP_RUNS * 2 && runs.length < STARTUP_RUNS; run++) {
    const profile = `${bundle}.${run}.cpuprofile`;
    const result = await wrangler(
      ["check", "startup", "-c", config, "--worker", bundle, "--outfile", profile],
      { capture: true },
    ).output();
    const output = decode(result.stdout) + decode(result.stderr);
    const ms = result.code === 0 ? startupActiveMs(output) : undefined;
    if (ms === undefined) failure = output;
    else runs.push(ms);
  }
  if (runs.length === 0) console.error(`${config}: wrangler check startup failed\n${failure}`);
  return runs.length ? Math.min(...runs) : null;
}

const kib = (bytes: number) => `${Math.round(bytes / 1024)} KiB`;

/** One line of the check's table. */
export function checkLine(size: WorkerSize): { line: string; ok: boolean } {
  const budget = budgetBytes(size.config);
  const ok = size.gzip_kib !== null && size.gzip_kib * 1024 <= budget;
  const gzip = size.gzip_kib === null ? "   failed" : `${size.gzip_kib.toFixed(1).padStart(7)} KiB`;
  const startup = size.startup_ms === undefined
    ? ""
    : `  start ${size.startup_ms === null ? "failed" : `${size.startup_ms.toFixed(0)} ms`}`;
  const verdict = ok ? `ok (under ${kib(budget)})` : `OVER ${kib(budget)} or failed`;
  return {
    line: `${size.name.padEnd(22)} ${gzip} gzipped${startup}  ${verdict}  (${size.config})`,
    ok,
  };
}

const CHECK_COMMAND = {
  usage: "deno task workers:check [options]",
  about:
    `Runs \`wrangler deploy --dry-run\` for every Worker (nothing is uploaded; no account needed) and
prints its gzipped size against its budget: 1 MiB for a Worker that parses no files, Cloudflare's
free-plan limit of 3 MiB for the two that do (sift-all-in-one, sift-embed; the paid plan allows
10 MiB). Exit code 1 when a Worker is over its budget. With --startup, also \`wrangler check
startup\` on the same bundle, 3 times: the least CPU time of the Worker's start, profiled locally
in workerd (Cloudflare allows 1 s). \`deno task bench --only workers\` records both in bench.json
and BENCHMARKS.md.`,
  flags: {
    only: {
      type: "string",
      value: "NAME,NAME",
      help: "these Workers only",
      default: "every Worker",
    },
    startup: {
      type: "boolean",
      help: "also profile each Worker's start (3 runs each: several minutes more)",
    },
    json: { type: "boolean", help: "print the rows as JSON (bench.json's workers) instead" },
  },
} satisfies Command;

async function check(args: readonly string[]): Promise<number> {
  const { values, positionals } = commandArgs(CHECK_COMMAND, args);
  if (positionals.length) usageMistake(CHECK_COMMAND, `unexpected argument ${positionals[0]}`);
  const sizes = await workerSizes({
    startup: values.startup === true,
    ...(values.only ? { only: values.only.split(",") } : {}),
  });
  const lines = sizes.map(checkLine);
  if (values.json) console.log(JSON.stringify(sizes, null, 2));
  else for (const { line } of lines) console.log(line);
  return lines.every(({ ok }) => ok) && sizes.length > 0 ? 0 : 1;
}

const DEV_ABOUT =
  `Runs the Workers locally in workerd (\`wrangler dev\`), offline, on PORT (default 8787) and HOST
(default 127.0.0.1), keeping state in SIFT_WRANGLER_STATE (default .wrangler/state). A .dev.vars at
the project's root goes to every Worker.`;

const DEV_COMMAND = {
  usage: "deno task workers:dev   (every Worker, the orchestrator on PORT)",
  about: DEV_ABOUT,
  flags: {},
} satisfies Command;

const DEV_ALL_IN_ONE_COMMAND = {
  usage: "deno task worker:dev   (the all-in-one Worker alone)",
  about: DEV_ABOUT,
  flags: {},
} satisfies Command;

if (import.meta.main) {
  const [command, ...rest] = Deno.args;
  if (command === "dev") {
    commandArgs(DEV_COMMAND, rest);
    Deno.exit(await dev(WORKER_CONFIGS));
  }
  if (command === "dev-all-in-one") {
    commandArgs(DEV_ALL_IN_ONE_COMMAND, rest);
    Deno.exit(await dev(["wrangler.toml"]));
  }
  if (command === "check") Deno.exit(await check(rest));
  console.error("usage: deno task workers:dev | deno task worker:dev | deno task workers:check");
  Deno.exit(2);
}

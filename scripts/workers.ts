/**
 * The per-function Workers, together:
 *
 *   deno task workers:dev     every Worker in one local workerd (offline), the
 *                             orchestrator on PORT (default 8787); a `.dev.vars`
 *                             at the project's root goes to every Worker
 *   deno task worker:dev      the all-in-one Worker alone, on PORT (default 8787)
 *   deno task workers:check   `wrangler deploy --dry-run` for each Worker, with
 *                             its gzipped size against the 3 MiB limit
 */
import { fileURLToPath } from "node:url";
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
 * Cloudflare's limit for a Worker's compressed size on the free plan (the paid
 * plan allows 10 MiB). The Workers that parse files (embed, all-in-one) carry
 * pdf.js and sit above 1 MiB.
 */
const LIMIT_BYTES = 3 * 1024 * 1024;

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

export type WorkerSize = { name: string; config: string; gzip_kib: number | null };

/** `wrangler deploy --dry-run` of every Worker: its gzipped size, null when the dry run failed. */
export async function workerSizes(): Promise<WorkerSize[]> {
  const sizes: WorkerSize[] = [];
  const outDir = await Deno.makeTempDir({ prefix: "sift-workers-" });
  try {
    for (const config of ["wrangler.toml", ...WORKER_CONFIGS]) {
      const { code, stdout, stderr } = await wrangler([
        "deploy",
        "--dry-run",
        "-c",
        config,
        "--outdir",
        `${outDir}/${config.replaceAll("/", "_")}`,
      ], { capture: true }).output();
      const output = new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr);
      const name = /^name = "([^"]+)"/m.exec(await Deno.readTextFile(`${ROOT}/${config}`))?.[1];
      const gzip = code === 0 ? gzipBytes(output) : undefined;
      if (gzip === undefined) console.error(`${name}: dry run failed (${config})\n${output}`);
      sizes.push({
        name: name ?? config,
        config,
        gzip_kib: gzip === undefined ? null : gzip / 1024,
      });
    }
  } finally {
    await Deno.remove(outDir, { recursive: true }).catch(() => {});
  }
  return sizes;
}

async function check(): Promise<number> {
  let failures = 0;
  for (const { name, config, gzip_kib } of await workerSizes()) {
    const ok = gzip_kib !== null && gzip_kib * 1024 <= LIMIT_BYTES;
    if (!ok) failures++;
    console.log(
      `${name.padEnd(22)} ${
        gzip_kib === null ? "   failed" : `${gzip_kib.toFixed(1).padStart(7)} KiB`
      } gzipped  ${ok ? "ok" : "OVER the 3 MiB limit or failed"}  (${config})`,
    );
  }
  return failures === 0 ? 0 : 1;
}

if (import.meta.main) {
  const command = Deno.args[0];
  if (command === "dev") Deno.exit(await dev(WORKER_CONFIGS));
  if (command === "dev-all-in-one") Deno.exit(await dev(["wrangler.toml"]));
  if (command === "check") Deno.exit(await check());
  console.error("usage: deno task workers:dev | deno task worker:dev | deno task workers:check");
  Deno.exit(2);
}

/**
 * What a start costs before sift serves: the time from spawning `deno task
 * start` (a throwaway data directory, the demo corpus) to its first answered
 * sparse `POST /v1/search`, and what loading the module graph alone costs
 * (`deno run --cached-only` of a file that only imports `main.ts` or
 * `app.ts`, beside an empty file). Medians of `--runs` starts, one after
 * another. Loopback only.
 *
 *   deno task bench:start [--runs 7]
 */
import { startTaskArgs } from "./bench-index.ts";
import { type Command, commandArgs, usageMistake } from "../cli/cli.ts";

const COMMAND = {
  usage: "deno task bench:start [options]",
  about:
    `Time from spawning deno task start (a throwaway data dir, the demo corpus) to the first answered
sparse POST /v1/search, and the module graph's own cost (deno run of a file importing main.ts or
app.ts beside an empty one). Medians. Loopback only.`,
  flags: {
    runs: {
      type: "string",
      value: "N",
      help: "starts (and module loads) to take the median of",
      default: "7",
    },
  },
} satisfies Command;

const ROOT = new URL("../", import.meta.url);
const SEARCH = { query: "How does reciprocal rank fusion work?", mode: "sparse", top_k: 3 };

export type StartReport = {
  runs: number;
  /** Spawn to the first 200 of `POST /v1/search`, ms. */
  first_search_ms: number;
  /** `deno run --cached-only` of a file importing only this module, ms (median). */
  module_graph_ms: { empty: number; "app.ts": number; "main.ts": number };
};

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = listener.addr.port;
  listener.close();
  return port;
}

/** One start: spawn, poll the search every 5 ms, stop. */
async function firstSearchMs(args: string[]): Promise<number> {
  const dataDir = await Deno.makeTempDir({ prefix: "sift-bench-start-" });
  const port = freePort();
  const started = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args,
    cwd: ROOT,
    env: { PORT: String(port), SIFT_DATA_DIR: dataDir, NO_COLOR: "1" },
    stdout: "null",
    stderr: "inherit",
  }).spawn();
  try {
    const deadline = started + 120_000;
    for (;;) {
      try {
        const response = await fetch(`http://127.0.0.1:${port}/v1/search`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(SEARCH),
        });
        const body = await response.json() as { results?: unknown[] };
        if (response.ok && body.results?.length) return performance.now() - started;
      } catch { /* not listening yet */ }
      if (performance.now() > deadline) throw new Error("no search answered in 2 minutes");
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  } finally {
    child.kill("SIGTERM");
    await child.status;
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  }
}

/** Wall time of `deno run --cached-only` of a file importing `target` (nothing when undefined). */
async function importMs(dir: string, target: string | undefined): Promise<number> {
  const file = `${dir}/${target ?? "empty"}.entry.ts`;
  const url = target ? new URL(target, ROOT).href : undefined;
  await Deno.writeTextFile(file, url ? `import ${JSON.stringify(url)};\n` : "\n");
  const started = performance.now();
  const { success } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--cached-only", "--config", new URL("deno.json", ROOT).pathname, file],
    cwd: ROOT,
    stdout: "null",
    stderr: "inherit",
  }).output();
  if (!success) throw new Error(`deno run of ${file} failed`);
  return performance.now() - started;
}

export async function benchStart(options: { runs?: number } = {}): Promise<StartReport> {
  const runs = options.runs ?? 7;
  const args = await startTaskArgs();
  const dir = await Deno.makeTempDir({ prefix: "sift-bench-imports-" });
  const loads: Record<"empty" | "app.ts" | "main.ts", number[]> = {
    empty: [],
    "app.ts": [],
    "main.ts": [],
  };
  const searches: number[] = [];
  try {
    await importMs(dir, "main.ts"); // the cache filled, the files in the page cache
    for (let run = 0; run < runs; run++) {
      for (const target of ["empty", "app.ts", "main.ts"] as const) {
        loads[target].push(await importMs(dir, target === "empty" ? undefined : target));
      }
      searches.push(await firstSearchMs(args));
      console.error(`run ${run + 1}: first search ${Math.round(searches.at(-1)!)} ms`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
  return {
    runs,
    first_search_ms: Math.round(median(searches)),
    module_graph_ms: {
      empty: Math.round(median(loads.empty)),
      "app.ts": Math.round(median(loads["app.ts"])),
      "main.ts": Math.round(median(loads["main.ts"])),
    },
  };
}

if (import.meta.main) {
  const { values, positionals } = commandArgs(COMMAND);
  if (positionals.length) usageMistake(COMMAND, `unexpected argument ${positionals[0]}`);
  const runs = Number(values.runs ?? 7);
  if (!Number.isInteger(runs) || runs < 1) {
    usageMistake(COMMAND, "--runs must be a whole number above 0");
  }
  console.log(JSON.stringify(await benchStart({ runs }), null, 2));
}

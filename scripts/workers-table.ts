import { budgetBytes, STARTUP_RUNS, type WorkerSize } from "./workers.ts";

const kib = (value: number) => `${value.toFixed(1)} KiB`;

/**
 * BENCHMARKS.md's "Worker sizes" section from `workerSizes()`'s rows: what
 * `deno task workers:check` printed, with each Worker's budget and start-up time.
 */
export function workersSection(rows: readonly WorkerSize[]): string {
  const lines = rows.map((worker) => {
    const budget = `${Math.round(budgetBytes(worker.config) / 1024 / 1024)} MiB`;
    const startup = worker.startup_ms == null ? "n/a" : `${Math.round(worker.startup_ms)} ms`;
    const size = worker.gzip_kib === null ? "failed" : kib(worker.gzip_kib);
    return `| ${worker.name} | ${size} | ${budget} | ${
      worker.parses_files ? "yes" : "no"
    } | ${startup} |`;
  });
  return `## Worker sizes and start-up

\`deno task workers:check\` (the same rows: \`deno task bench --only workers\`): \`wrangler deploy
--dry-run\` of each Worker, gzipped, nothing uploaded. Cloudflare limits a Worker to 3 MiB
compressed on the free plan and 10 MiB on the paid plan; sift holds every Worker that parses no
files to 1 MiB. The two that parse uploads (sift-all-in-one, sift-embed) carry pdf.js, imported on
the first PDF only. Start-up is \`deno task workers:check --startup\`: \`wrangler check startup\` on
the same bundle, the CPU time of the Worker's top level profiled locally in workerd, the least of
${STARTUP_RUNS} runs (Cloudflare allows 1 s; a busy machine only adds to a run).

| Worker | gzipped | budget | parses files | start-up CPU |
|---|---|---|---|---|
${lines.join("\n")}
`;
}

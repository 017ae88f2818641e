import { readConfig } from "../../shared/config.ts";
import { indexLogIn } from "../../adapters/deno/data-dir.ts";
import { Runtime } from "../../compose/runtime.ts";
import { backgroundStepContext } from "../../shared/steps/transport.ts";
import { ALL_IN_ONE_SERVES, createSiftApp } from "../../app.ts";
import { stepsOver } from "../../functions/evaluate/default-steps.ts";
import { ensureCorpus } from "../../functions/evaluate/smoke.ts";
import { progressBar } from "../../functions/evaluate/progress.ts";
import { type CliOptions, namespaceFor } from "./cli-args.ts";
import { BEIR_DEFAULT_LIMITS, loadBeir } from "./beir-load.ts";
import { DEFAULT_MODES, DEFAULT_STRATEGIES, gridCells } from "./beir-grid.ts";
import { runGrid } from "./beir-run.ts";
import {
  compareToBaseline,
  renderComparisons,
  renderGridTable,
  summarizeCell,
} from "./beir-table.ts";

const list = (value: string | undefined, fallback: readonly string[]) =>
  value === undefined ? [...fallback] : value.split(",").map((name) => name.trim()).filter(Boolean);

/**
 * `deno task eval --dataset <BEIR folder>`: ingests the corpus, runs every
 * judged query (or the first --limit) through every strategy × retrieval
 * mode in this process, and prints the quality/cost table and the paired
 * comparisons against the first cell. Returns the exit code.
 */
export async function runBeirCommand(
  options: CliOptions,
  write: { out: (text: string) => void; err: (text: string) => void; isTTY: boolean },
): Promise<number> {
  const topK = options.topK ?? 10;
  const keep = Math.min(options.keep ?? topK, topK);
  const dataset = await loadBeir(options.dataset, options.split ?? "test", {
    ...BEIR_DEFAULT_LIMITS,
    ...(options.maxDocuments ? { maxDocuments: options.maxDocuments } : {}),
  });
  const namespace = options.namespace ?? namespaceFor(dataset.name);
  const cells = gridCells(
    list(options.strategies, DEFAULT_STRATEGIES),
    list(options.modes, DEFAULT_MODES),
    { namespace, topK, keep },
  );
  const queries = dataset.queries.slice(0, options.limit ?? dataset.queries.length);
  const env = Deno.env.toObject();
  const config = readConfig(env);
  let calls = 0;
  const runtime = new Runtime({
    log: indexLogIn(env.SIFT_DATA_DIR ?? ".data"),
    onModelCall: () => calls++,
  });
  const deps = runtime.deps(config);
  const app = createSiftApp({ runtime });
  const steps = stepsOver(backgroundStepContext({
    env,
    config,
    serves: ALL_IN_ONE_SERVES,
    fetch: async (request) => await app.fetch(request, env),
  }));
  write.err(
    `evaluating ${dataset.name} (BEIR, split ${dataset.split}): ${queries.length} of ` +
      `${dataset.queries.length} judged queries × ${cells.length} strategy/mode cells ` +
      `(top ${topK}, answer from ${keep}; llm=${deps.providers.llm})\n`,
  );
  const corpus = await ensureCorpus(deps, dataset.corpus, namespace);
  write.err(
    corpus.ingested
      ? `ingested ${dataset.corpus.length} documents (${corpus.chunks} chunks) into namespace ${namespace}\n`
      : `corpus already in namespace ${namespace} (${corpus.chunks} chunks)\n`,
  );
  const progress = progressBar({ write: write.err, isTTY: write.isTTY });
  const results = await runGrid(deps, steps, { queries, qrels: dataset.qrels }, cells, {
    recallK: topK,
    calls: () => calls,
    onProgress: ({ done, total }) =>
      progress.update({ done, total, phase: "runs", reused: 0, failed: 0 }),
  });
  progress.finish();
  await runtime.flush();
  const summaries = results.map(summarizeCell);
  const comparisons = compareToBaseline(results);
  write.out(renderGridTable(summaries, topK) + "\n");
  const compared = renderComparisons(results[0], comparisons);
  if (compared) write.out(`\n${compared}\n`);
  await Deno.mkdir(options.out, { recursive: true });
  const reportPath = `${options.out}/beir-report.json`;
  await Deno.writeTextFile(
    reportPath,
    JSON.stringify(
      {
        dataset: { name: dataset.name, split: dataset.split, queries: queries.length },
        settings: { top_k: topK, keep, namespace, llm: deps.providers.llm },
        summary: summaries,
        comparisons,
        failures: results.flatMap((cell) =>
          cell.failed.map((failure) => ({ strategy: cell.strategy, mode: cell.mode, ...failure }))
        ),
      },
      (_key, value) => typeof value === "number" && Number.isNaN(value) ? null : value,
      2,
    ) + "\n",
  );
  write.out(`\nbeir-report.json: ${reportPath}\n`);
  return results.every((cell) => cell.scores.size > 0) ? 0 : 1;
}

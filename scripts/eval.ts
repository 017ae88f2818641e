/**
 * Batch evaluation of pipeline variants from the terminal, in-process with
 * the embedded defaults (or whatever the environment configures):
 *
 *   deno task eval --dataset ../shared/datasets/aragog --variants none,one-turn --limit 5 --out reports/today
 *
 * A BEIR folder (corpus.jsonl, queries.jsonl, qrels/<split>.tsv) runs the
 * ranking grid instead (scripts/eval/beir-command.ts):
 *
 *   deno task eval --dataset ~/beir/scifact --strategies none,one-turn --modes sparse,hybrid --limit 20
 *
 * Writes report.json and report.html into --out, keeps checkpoints in
 * --out/checkpoints.jsonl (Ctrl-C, then the same command, resumes), and
 * appends the run to the history beside --out to compare with the next one.
 */
import { ResilientCache } from "../shared/cache/resilient.ts";
import { readConfig } from "../shared/config.ts";
import { indexLogIn } from "../adapters/deno/data-dir.ts";
import { EVAL_COMMAND, namespaceFor, parseCliArgs, USAGE } from "./eval/cli-args.ts";
import { parseQuestionsJsonl } from "../functions/evaluate/dataset.ts";
import { fileCheckpointStore } from "./eval/file-checkpoints.ts";
import { fileHistory } from "./eval/file-history.ts";
import { recordRun } from "../functions/evaluate/history.ts";
import { progressBar } from "../functions/evaluate/progress.ts";
import { renderReportHtml, renderReportJson } from "../functions/evaluate/report/html.ts";
import { summaryText } from "../functions/evaluate/report/text.ts";
import { runEvaluation } from "../functions/evaluate/run.ts";
import { ensureCorpus } from "../functions/evaluate/smoke.ts";
import { Runtime } from "../compose/runtime.ts";
import { backgroundStepContext } from "../shared/steps/transport.ts";
import { ALL_IN_ONE_SERVES, createSiftApp } from "../app.ts";
import { stepsOver } from "../functions/evaluate/default-steps.ts";
import { readDocuments } from "./documents.ts";
import { isBeirFolder } from "./eval/beir-load.ts";
import { runBeirCommand } from "./eval/beir-command.ts";

const encoder = new TextEncoder();
const stderr = (text: string) => Deno.stderr.writeSync(encoder.encode(text));

function fail(message: string, code = 2): never {
  console.error(`error: ${message}\nusage: ${EVAL_COMMAND.usage} (--help for every option)`);
  Deno.exit(code);
}

let options;
try {
  options = parseCliArgs(Deno.args, Deno.env.get("INIT_CWD") ?? Deno.cwd());
} catch (error) {
  fail((error as Error).message);
}
if (options === "help") {
  console.log(USAGE);
  Deno.exit(0);
}

// A BEIR folder (queries.jsonl, qrels/) runs the strategy × retrieval-mode grid instead.
if (await isBeirFolder(options.dataset)) {
  try {
    Deno.exit(
      await runBeirCommand(options, {
        out: (text) => {
          // writeSync may write part of a large table to a pipe: write the rest too.
          for (let bytes = encoder.encode(text); bytes.length > 0;) {
            bytes = bytes.subarray(Deno.stdout.writeSync(bytes));
          }
        },
        err: stderr,
        isTTY: Deno.stderr.isTerminal(),
      }),
    );
  } catch (error) {
    fail(`evaluation failed: ${(error as Error).message}`, 1);
  }
}

/** A folder holds questions.jsonl (+ corpus.jsonl); a file is the questions alone. */
async function loadDataset(path: string) {
  const info = await Deno.stat(path).catch(() => fail(`${path}: no such file or folder`));
  const folder = info.isDirectory;
  const questionsPath = folder ? `${path}/questions.jsonl` : path;
  const name = (path.replace(/\/+$/, "").split("/").pop() ?? "dataset").replace(/\.jsonl$/, "");
  const questions = parseQuestionsJsonl(await Deno.readTextFile(questionsPath), questionsPath);
  const corpusPath = `${path}/corpus.jsonl`;
  const hasCorpus = folder && await Deno.stat(corpusPath).then(() => true, () => false);
  return { name, questions, documents: hasCorpus ? await readDocuments(corpusPath) : undefined };
}

const dataset = await loadDataset(options.dataset);
const namespace = options.namespace ?? namespaceFor(dataset.name);
const env = Deno.env.toObject();
const config = readConfig(env);
const dataDir = env.SIFT_DATA_DIR ?? ".data";
const runtime = new Runtime({ log: indexLogIn(dataDir) });
let deps = runtime.deps(config);
// The pipeline and the judges run in this process, on their public routes, as a server runs them.
const app = createSiftApp({ runtime });
const steps = stepsOver(backgroundStepContext({
  env,
  config,
  serves: ALL_IN_ONE_SERVES,
  fetch: async (request) => await app.fetch(request, env),
}));
await Deno.mkdir(options.out, { recursive: true });
if (deps.providers.cache === "offline") {
  // The embedded cache is memory: checkpoints go to a file as well, to outlive Ctrl-C.
  const store = await fileCheckpointStore(`${options.out}/checkpoints.jsonl`, deps.cache.store);
  deps = { ...deps, cache: new ResilientCache(store) };
}

// An unfinished run in --out is resumed unless --run-id says otherwise.
const statePath = `${options.out}/run-state.json`;
const state = await Deno.readTextFile(statePath).then((text) => JSON.parse(text), () => ({}));
const resumable = typeof state.run_id === "string" && state.finished === false;
const runId = options.runId ??
  (resumable ? state.run_id as string : `${dataset.name}-${Date.now()}`);
await Deno.writeTextFile(statePath, JSON.stringify({ run_id: runId, finished: false }) + "\n");
console.error(
  `evaluating ${dataset.name}: ${
    options.limit ?? dataset.questions.length
  } of ${dataset.questions.length} ` +
    `questions × ${options.variants}${
      options.repeat && options.repeat > 1 ? ` × ${options.repeat} runs` : ""
    } (run ${runId}${resumable && !options.runId ? ", resumed" : ""}; ` +
    `llm=${deps.providers.llm}, judge=${config.llm.judgeModel})`,
);

if (dataset.documents) {
  const corpus = await ensureCorpus(deps, dataset.documents, namespace);
  console.error(
    corpus.ingested
      ? `ingested ${dataset.documents.length} documents (${corpus.chunks} chunks) into namespace ${namespace}`
      : `corpus already in namespace ${namespace} (${corpus.chunks} chunks)`,
  );
}

const controller = new AbortController();
const interrupt = () => controller.abort(new Error("interrupted"));
Deno.addSignalListener("SIGINT", interrupt);
const progress = progressBar({ write: stderr, isTTY: Deno.stderr.isTerminal() });
let report;
try {
  report = await runEvaluation(deps, {
    dataset: { name: dataset.name, questions: dataset.questions },
    variants: options.variants,
    limit: options.limit,
    games_per_query: options.gamesPerQuery,
    concurrency: options.concurrency,
    repeat: options.repeat,
    namespace,
    run_id: runId,
  }, { onProgress: progress.update, signal: controller.signal, steps });
} catch (error) {
  progress.finish();
  if (controller.signal.aborted) {
    console.error(`interrupted: run the same command again to resume run ${runId}`);
    Deno.exit(130);
  }
  fail(`evaluation failed: ${(error as Error).message}`, 1);
} finally {
  Deno.removeSignalListener("SIGINT", interrupt);
}
progress.finish();

const outParent = options.out.replace(/\/+$/, "").replace(/\/[^/]*$/, "") || ".";
const historyPath = options.history ?? `${outParent}/eval-history.json`;
await recordRun(report, fileHistory(historyPath));
const jsonPath = `${options.out}/report.json`;
const htmlPath = `${options.out}/report.html`;
await Deno.writeTextFile(jsonPath, renderReportJson(report));
await Deno.writeTextFile(htmlPath, renderReportHtml(report));
await Deno.writeTextFile(statePath, JSON.stringify({ run_id: runId, finished: true }) + "\n");

console.log(summaryText(report));
console.log(`\nreport.json: ${jsonPath}\nreport.html: ${htmlPath}\nhistory:     ${historyPath}`);

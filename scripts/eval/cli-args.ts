import { parseArgs } from "node:util";

export const USAGE = `Usage: deno task eval --dataset <dir|questions.jsonl> [options]

  --dataset <path>          a folder with questions.jsonl (and corpus.jsonl, ingested first),
                            or a questions .jsonl evaluated against what --namespace holds
  --variants <list>         comma-separated: none, one-turn, two-turn, relevance,
                            two-turn-relevance, item, tot, each optionally +fusion
                            (default none,one-turn)
  --limit <n>               only the first n questions
  --out <dir>               where report.json and report.html go (default eval-report)
  --namespace <ns>          index namespace (default eval-<dataset name>)
  --run-id <id>             names the run's checkpoints; the same id resumes (default: resume
                            the unfinished run in --out, else a new id)
  --games-per-query <n>     pairs of variants judged per question (default every pair)
  --concurrency <n>         questions in flight (default 2)
  --repeat <n>              runs per question (default 1; REBEL ran 10): each run after the
                            first asks the model again, and the intervals cover all runs
  --history <file>          run history (default <parent of --out>/eval-history.json)

A BEIR folder (corpus.jsonl, queries.jsonl, qrels/<split>.tsv) runs the ranking grid instead:
  --strategies <list>       none, relevance, one-turn, two-turn, two-turn-relevance,
                            item[:A_s|AR_s|A_r][:explicit|implicit][:listwise|pointwise][:top5],
                            tot[:passage|sentence][:cut<n>] (default: none, relevance, one-turn,
                            two-turn, item:AR_s, item:A_s, item:A_r, tot)
  --modes <list>            sparse, dense, hybrid, each optionally +fusion (default all six)
  --split <name>            which qrels/<name>.tsv judges (default test)
  --top-k <n>               passages retrieved and reranked per query (default 10)
  --keep <n>                passages the answer is given (default --top-k: the whole reranked
                            list; 3 is REBEL's setup)
  --max-documents <n>       refuse a corpus larger than this (default 100000)
  --limit, --out and --namespace as above; the table also goes to <out>/beir-report.json`;

export type CliOptions = {
  dataset: string;
  variants: string;
  limit?: number;
  out: string;
  namespace?: string;
  runId?: string;
  gamesPerQuery?: number;
  concurrency?: number;
  repeat?: number;
  history?: string;
  /** The BEIR grid's options (ignored for a questions dataset). */
  strategies?: string;
  modes?: string;
  split?: string;
  topK?: number;
  keep?: number;
  maxDocuments?: number;
};

function positive(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0) throw new Error(`--${name} must be a whole number`);
  return number;
}

/** Relative paths are the caller's: `deno task` runs in the project folder, `INIT_CWD` is theirs. */
export function resolvePath(path: string, base: string): string {
  return path.startsWith("/") ? path : `${base.replace(/\/$/, "")}/${path}`;
}

/** The command line as options; throws with a readable message (the caller prints `USAGE`). */
export function parseCliArgs(args: string[], base: string): CliOptions | "help" {
  const { values } = parseArgs({
    args,
    strict: true,
    options: {
      dataset: { type: "string" },
      variants: { type: "string", default: "none,one-turn" },
      limit: { type: "string" },
      out: { type: "string", default: "eval-report" },
      namespace: { type: "string" },
      "run-id": { type: "string" },
      "games-per-query": { type: "string" },
      concurrency: { type: "string" },
      repeat: { type: "string" },
      history: { type: "string" },
      strategies: { type: "string" },
      modes: { type: "string" },
      split: { type: "string" },
      "top-k": { type: "string" },
      keep: { type: "string" },
      "max-documents": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) return "help";
  if (!values.dataset) throw new Error("--dataset is required");
  const limit = positive("limit", values.limit);
  const games = positive("games-per-query", values["games-per-query"]);
  const concurrency = positive("concurrency", values.concurrency);
  const repeat = positive("repeat", values.repeat);
  if (repeat === 0) throw new Error("--repeat must be at least 1");
  const topK = positive("top-k", values["top-k"]);
  const keep = positive("keep", values.keep);
  const maxDocuments = positive("max-documents", values["max-documents"]);
  for (const [name, value] of [["top-k", topK], ["keep", keep], ["max-documents", maxDocuments]]) {
    if (value === 0) throw new Error(`--${name} must be at least 1`);
  }
  if (topK !== undefined && topK > 100) throw new Error("--top-k must be at most 100");
  return {
    dataset: resolvePath(values.dataset, base),
    variants: values.variants,
    out: resolvePath(values.out, base),
    ...(limit !== undefined ? { limit } : {}),
    ...(values.namespace ? { namespace: values.namespace } : {}),
    ...(values["run-id"] ? { runId: values["run-id"] } : {}),
    ...(games !== undefined ? { gamesPerQuery: games } : {}),
    ...(concurrency !== undefined ? { concurrency } : {}),
    ...(repeat !== undefined ? { repeat } : {}),
    ...(values.history ? { history: resolvePath(values.history, base) } : {}),
    ...(values.strategies ? { strategies: values.strategies } : {}),
    ...(values.modes ? { modes: values.modes } : {}),
    ...(values.split ? { split: values.split } : {}),
    ...(topK !== undefined ? { topK } : {}),
    ...(keep !== undefined ? { keep } : {}),
    ...(maxDocuments !== undefined ? { maxDocuments } : {}),
  };
}

/** `eval-<name>` made into a valid namespace. */
export function namespaceFor(datasetName: string): string {
  return `eval-${datasetName.replace(/[^A-Za-z0-9_-]+/g, "-")}`.slice(0, 64);
}

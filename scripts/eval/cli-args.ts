import { type Command, parseFlags, usageText, wantsHelp } from "../../cli/flags.ts";

/** `deno task eval`'s flags; `--help` prints them with their defaults. */
export const EVAL_COMMAND = {
  usage: "deno task eval --dataset <dir|questions.jsonl> [options]",
  about:
    `Batch evaluation of pipeline variants, in-process: writes report.json and report.html into --out,
keeps checkpoints in --out/checkpoints.jsonl (Ctrl-C, then the same command, resumes) and appends
the run to the history beside --out. A BEIR folder (corpus.jsonl, queries.jsonl,
qrels/<split>.tsv) runs the ranking grid instead: the options marked (BEIR) apply to it, with
--limit, --out and --namespace; the table also goes to <out>/beir-report.json.`,
  flags: {
    dataset: {
      type: "string",
      value: "PATH",
      help: "a folder with questions.jsonl (and corpus.jsonl, ingested first), or a questions " +
        ".jsonl evaluated against what --namespace holds (required)",
    },
    variants: {
      type: "string",
      value: "LIST",
      help:
        "comma-separated: none, one-turn, two-turn, relevance, two-turn-relevance, item, tot, " +
        "each optionally +fusion",
      default: "none,one-turn",
    },
    limit: { type: "string", value: "N", help: "only the first N questions", default: "all" },
    out: {
      type: "string",
      value: "DIR",
      help: "where report.json and report.html go",
      default: "eval-report",
    },
    namespace: {
      type: "string",
      value: "NS",
      help: "index namespace",
      default: "eval-<dataset name>",
    },
    "run-id": {
      type: "string",
      value: "ID",
      help: "names the run's checkpoints; the same id resumes",
      default: "resume the unfinished run in --out, else a new id",
    },
    "games-per-query": {
      type: "string",
      value: "N",
      help: "pairs of variants judged per question",
      default: "every pair",
    },
    concurrency: { type: "string", value: "N", help: "questions in flight", default: "2" },
    repeat: {
      type: "string",
      value: "N",
      help: "runs per question (REBEL ran 10): each run after the first asks the model again, " +
        "and the intervals cover all runs",
      default: "1",
    },
    history: {
      type: "string",
      value: "FILE",
      help: "run history",
      default: "<parent of --out>/eval-history.json",
    },
    strategies: {
      type: "string",
      value: "LIST",
      help: "(BEIR) none, relevance, one-turn, two-turn, two-turn-relevance, " +
        "item[:A_s|AR_s|A_r][:explicit|implicit][:listwise|pointwise][:top5], " +
        "tot[:passage|sentence][:cut<n>]",
      default: "none, relevance, one-turn, two-turn, item:AR_s, item:A_s, item:A_r, tot",
    },
    modes: {
      type: "string",
      value: "LIST",
      help: "(BEIR) sparse, dense, hybrid, each optionally +fusion",
      default: "all six",
    },
    split: {
      type: "string",
      value: "NAME",
      help: "(BEIR) which qrels/<name>.tsv judges",
      default: "test",
    },
    "top-k": {
      type: "string",
      value: "N",
      help: "(BEIR) passages retrieved and reranked per query",
      default: "10",
    },
    keep: {
      type: "string",
      value: "N",
      help: "(BEIR) passages the answer is given (3 is REBEL's setup)",
      default: "--top-k: the whole reranked list",
    },
    "max-documents": {
      type: "string",
      value: "N",
      help: "(BEIR) refuse a corpus larger than this",
      default: "100000",
    },
  },
} satisfies Command;

export const USAGE = usageText(EVAL_COMMAND);

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
  if (wantsHelp(args)) return "help";
  const { values: given, positionals } = parseFlags(EVAL_COMMAND, args);
  if (positionals.length) {
    throw new Error(`unexpected argument ${positionals[0]} (the dataset goes after --dataset)`);
  }
  const values = { variants: "none,one-turn", out: "eval-report", ...given };
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

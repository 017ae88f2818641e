/**
 * `--help` for the commands that start a server (`deno task start`, `dev`,
 * `serve <function>`): what each serves and every variable it reads, so
 * `--help` answers without starting anything.
 */
import { CONFIG_VARIABLES } from "../shared/config.ts";
import { type Command, commandArgs, usageMistake } from "./cli.ts";
import { nearest } from "./flags.ts";

/** What each `deno task serve` name runs. */
export const SERVE_FUNCTIONS: Record<string, string> = {
  index: "embed and fuse in one process: the embedded index's one owner (ingest and search)",
  embed: "ingest: chunking, embeddings, document parsing (owns an index of its own)",
  fuse: "search: dense, sparse or hybrid retrieval with reciprocal rank fusion",
  "generate-rubric": "the criteria a question's answers are judged by",
  rerank: "reranking by an LLM (one-turn, two-turn, item, tot, ...)",
  answer: "the cited answer",
  judge: "pairwise and rubric judgments",
  evaluate: "evaluation runs over a dataset",
  orchestrator: "the public API: /v1/query, chat, MCP, the console; calls the others",
};

/** `text`'s words as lines of at most `width` characters, each indented by `indent`. */
export function wrap(words: readonly string[], width = 100, indent = "  "): string {
  const lines: string[] = [];
  let line = indent;
  for (const word of words) {
    if (line.trim() && line.length + word.length + 1 > width) {
      lines.push(line.trimEnd());
      line = indent;
    }
    line += `${word} `;
  }
  if (line.trim()) lines.push(line.trimEnd());
  return lines.join("\n");
}

/** The variables a server reads: its own, then `readConfig`'s (docs/configuration.md). */
export function serverVariables(own: readonly string[]): string {
  return [
    "environment (docs/configuration.md says what each does):",
    wrap(own),
    wrap(CONFIG_VARIABLES.filter((name) => !own.includes(name))),
  ].join("\n");
}

const START_COMMAND = {
  usage: "deno task start   (or deno task dev, which restarts on file changes)",
  about:
    `Serves every function on one port (PORT, default 8787; HOST, default 127.0.0.1): the API, the
console at /, MCP at /mcp. The embedded index and the jobs queue live in SIFT_DATA_DIR (default
.data). Without keys it runs offline: the offline model (a deterministic heuristic, not an LLM) and
hashed embeddings; set LLM_API_KEY or LLM_BASE_URL for real answers.`,
  flags: {},
  more: serverVariables(["PORT", "HOST", "SIFT_DATA_DIR", "API_KEYS"]),
} satisfies Command;

/** `deno task start --help`: the usage, exit 0; any other argument is a mistake (exit 2). */
export function startArgs(args: readonly string[] = Deno.args): void {
  const { positionals } = commandArgs(START_COMMAND, args);
  if (positionals.length > 0) usageMistake(START_COMMAND, `unexpected argument ${positionals[0]}`);
}

/** `deno task serve`'s function name, or its usage (exit 0 on --help, 2 on a mistake). */
export function serveArgs(names: readonly string[], args: readonly string[] = Deno.args): string {
  const width = Math.max(...names.map((name) => name.length));
  const command = {
    usage: `deno task serve <${names.join("|")}>`,
    about: `Runs one function alone on PORT, as Deno Deploy would run it. Functions:
${names.map((name) => `  ${name.padEnd(width)}  ${SERVE_FUNCTIONS[name] ?? ""}`).join("\n")}

The orchestrator finds the others at STEP_URL_<NAME> (e.g. STEP_URL_FUSE=http://127.0.0.1:8791);
without one, it runs that step in-process. index, embed and fuse own an embedded index in
SIFT_DATA_DIR (one owner at a time) unless UPSTASH_* is set (docs/deno-processes.md).`,
    flags: {},
    more: serverVariables(["PORT", "HOST", "SIFT_DATA_DIR", "STEP_URL_<NAME>"]),
  } satisfies Command;
  const { positionals } = commandArgs(command, args);
  const name = positionals[0];
  if (name === undefined) usageMistake(command, "which function? name one");
  if (!names.includes(name)) {
    const near = nearest(name, names);
    usageMistake(
      command,
      `no function "${name}"${near ? ` (did you mean ${near}?)` : ""}; one of ${names.join(", ")}`,
    );
  }
  if (positionals.length > 1) usageMistake(command, `unexpected argument ${positionals[1]}`);
  return name;
}

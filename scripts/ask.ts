/**
 * Asks sift a question and streams the answer, showing each stage.
 *
 *   deno task ask "What is reciprocal rank fusion?" [--mode sparse] [--top-k 5] [--fusion 4]
 *     [--rerank STRATEGY] [--top-n 3]
 *     [--namespace ns]
 */
import { type Command, commandArgs, fail, firstWords, orExit, usageMistake } from "../cli/cli.ts";
import { connect, readEvents } from "./client.ts";
import { rerankStrategyNames } from "../shared/rerank/strategies.ts";

const COMMAND = {
  usage: 'deno task ask "your question" [options]',
  about:
    `Asks sift and streams each stage: the retrieved chunks (title and first words), the rubric and
reranked passages with --rerank, then the cited answer. It talks to a server at SIFT_URL (default
http://127.0.0.1:$PORT, PORT 8787) or, when none answers and SIFT_URL is unset, runs in-process
over the local index in SIFT_DATA_DIR (default .data).`,
  flags: {
    mode: {
      type: "string",
      help: "retrieval mode",
      choices: ["dense", "sparse", "hybrid"],
      default: "hybrid",
    },
    "top-k": {
      type: "string",
      value: "N",
      help: "chunks to retrieve",
      default: "5, or 10 with --rerank",
    },
    fusion: { type: "string", value: "N", help: "RAG-Fusion query variations", default: "off" },
    rerank: {
      type: "string",
      value: "STRATEGY",
      // The server checks the name, so a strategy it defines is taken whatever this list says.
      help: `reranking strategy: ${rerankStrategyNames().join(", ")}`,
      default: "none",
    },
    "top-n": { type: "string", value: "N", help: "passages the reranker keeps", default: "3" },
    namespace: { type: "string", value: "NS", help: "the index namespace", default: "default" },
  },
  more: "env: SIFT_URL, PORT, SIFT_DATA_DIR, SIFT_API_KEY (sent as a bearer token), NO_COLOR",
} satisfies Command;

const { values, positionals } = commandArgs(COMMAND);
const query = positionals.join(" ").trim();
if (!query) usageMistake(COMMAND, "no question: put it in quotes after the command");

const encoder = new TextEncoder();
const write = (text: string) => Deno.stdout.writeSync(encoder.encode(text));
const plain = Deno.env.get("NO_COLOR") !== undefined || !Deno.stdout.isTerminal();
const dim = (text: string) => (plain ? text : `\x1b[2m${text}\x1b[0m`);

const sift = await orExit(connect());
console.log(dim(`sift: ${sift.where}`));
const response = await orExit(sift.fetch("/v1/query", {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({
    query,
    pipeline: {
      retrieval: {
        ...(values.mode ? { mode: values.mode } : {}),
        ...(values["top-k"] ? { top_k: Number(values["top-k"]) } : {}),
        ...(values.fusion ? { fusion: Number(values.fusion) } : {}),
      },
      ...(values.rerank
        ? {
          rerank: {
            strategy: values.rerank,
            ...(values["top-n"] ? { top_n: Number(values["top-n"]) } : {}),
          },
        }
        : {}),
      ...(values.namespace ? { namespace: values.namespace } : {}),
    },
  }),
}));
if (!response.ok || !response.body) {
  const text = await response.text();
  let message = text;
  try {
    message = JSON.parse(text).error?.message ?? text;
  } catch { /* not JSON: print it as it came */ }
  fail(`sift answered ${response.status}: ${message}`);
}

type Hit = { id: string; score: number; text: string; metadata: { title?: string } };
type Citation = { index: number; label?: string; title?: string; id?: string };
let exitCode = 0;
for await (const { event, data } of readEvents(response.body)) {
  const payload = data as Record<string, unknown>;
  if (event === "retrieval-end") {
    const queries = payload.queries as { text: string }[];
    if (queries.length > 1) console.log(dim(`queries: ${queries.map((q) => q.text).join(" | ")}`));
    const results = payload.results as Hit[];
    console.log(dim(`retrieved ${results.length}:`));
    results.forEach((hit, i) =>
      console.log(
        dim(
          `  [${i + 1}] ${hit.metadata.title ?? hit.id} (${hit.id}, score ${
            hit.score.toFixed(4)
          }): ${firstWords(hit.text)}`,
        ),
      )
    );
    write("\n");
  } else if (event === "rubric-end") {
    const rubric = payload.rubric as { criteria: { name: string; weight: number }[] };
    console.log(
      dim(
        `rubric: ${
          rubric.criteria.map((c) => `${c.name}×${c.weight}`).join(", ") || "relevance only"
        }`,
      ),
    );
  } else if (event === "rerank-end") {
    const results = payload.results as {
      index: number;
      title?: string;
      doc_id: string;
      relevance_score: number | null;
    }[];
    console.log(dim(`reranked, kept ${results.length}:`));
    results.forEach((result, i) =>
      console.log(
        dim(
          `  [${i + 1}] ${result.title ?? result.doc_id} (was #${result.index + 1}, final ${
            result.relevance_score ?? "n/a"
          })`,
        ),
      )
    );
    if (payload.degraded) {
      console.log(dim("  (degraded: some documents kept their retrieval order)"));
    }
    write("\n");
  } else if (event === "answer-delta") {
    write(String(payload.text));
  } else if (event === "answer-end") {
    write("\n\n");
    for (const citation of payload.citations as Citation[]) {
      console.log(dim(`[${citation.index}] ${citation.label ?? citation.title ?? citation.id}`));
    }
  } else if (event === "usage") {
    const steps = payload.steps as { name: string; started_ms: number; ended_ms: number }[];
    console.log(
      dim(
        steps.map((s) => `${s.name} ${Math.round(s.ended_ms - s.started_ms)}ms`).join(", ") +
          `; total ${Math.round(Number(payload.total_ms))}ms`,
      ),
    );
  } else if (event === "error") {
    console.error(`error: ${payload.message}`);
    exitCode = 1;
  }
}
Deno.exit(exitCode);

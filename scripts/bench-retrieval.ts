/**
 * Retrieval quality on an ARAGOG-style dataset: dense, sparse and hybrid
 * `POST /v1/search` (top 5) against a plain Okapi BM25 baseline over the same
 * chunks, all in one run; then the token windows sift cut before #22 beside
 * the structure-following chunker, on the same embedder and index. Runs the service in-process with the embedded
 * defaults (or whatever the environment configures).
 *
 *   deno task bench:retrieval [../shared/datasets/aragog]
 */
import { createSiftApp } from "../app.ts";
import { readConfig } from "../shared/config.ts";
import { chunkerScores, chunkerSweep, chunkerTable, sweepTable } from "./chunking-eval.ts";
import { batchDocuments } from "./documents.ts";
import { postInProcess, readDataset, retrievalScores, scoreTable } from "./retrieval-eval.ts";
import { type Command, commandArgs, usageMistake } from "../cli/cli.ts";

const COMMAND = {
  usage: "deno task bench:retrieval [DATASET_DIR]",
  about:
    `Retrieval quality on an ARAGOG-style dataset (a folder with corpus.jsonl and questions.jsonl;
default ../shared/datasets/aragog): dense, sparse and hybrid search (top 5) against a plain BM25
baseline, then the two chunkers side by side. In-process, in memory: nothing is written.`,
  flags: {},
} satisfies Command;

const { positionals } = commandArgs(COMMAND);
if (positionals.length > 1) usageMistake(COMMAND, `unexpected argument ${positionals[1]}`);
const directory = positionals[0] ??
  new URL("../../shared/datasets/aragog", import.meta.url).pathname;
const env = { ...Deno.env.toObject(), DEMO_CORPUS: "false" };
const config = readConfig(env);
const app = createSiftApp();
const post = postInProcess(app, env);

const { documents, questions } = await readDataset(directory);
const namespace = "bench-retrieval";
const started = performance.now();
for (const batch of batchDocuments(documents)) {
  await post("/v1/documents", { documents: batch, namespace });
}
console.log(
  `ingested ${documents.length} documents in ${Math.round(performance.now() - started)} ms ` +
    `(chunks of ${config.chunking.size} tokens, overlap ${config.chunking.overlap}; llm=${config.llm.provider})`,
);

const scores = await retrievalScores(post, { documents, questions }, config.chunking, namespace);
console.log(scoreTable(scores));

console.log(
  "\nToday's token windows beside the structure-following chunker (same embedder and index):",
);
console.log(chunkerTable(await chunkerScores({ documents, questions }, config.chunking, env)));
console.log("\nHybrid, both chunkers, at other chunk sizes:");
console.log(
  sweepTable(
    await chunkerSweep(
      { documents, questions },
      [300, 350, 400, 450, 500],
      config.chunking.overlap,
      env,
    ),
  ),
);

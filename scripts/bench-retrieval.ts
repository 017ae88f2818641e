/**
 * Retrieval quality on an ARAGOG-style dataset: dense, sparse and hybrid
 * `POST /v1/search` (top 5) against a plain Okapi BM25 baseline over the same
 * chunks, all in one run. Runs the service in-process with the embedded
 * defaults (or whatever the environment configures).
 *
 *   deno task bench:retrieval [../shared/datasets/aragog]
 */
import { createSiftApp } from "../app.ts";
import { readConfig } from "../shared/config.ts";
import { batchDocuments } from "./documents.ts";
import { bm25Baseline, readDataset, scoreMode, scoreTable } from "./retrieval-eval.ts";

const directory = Deno.args[0] ?? new URL("../../shared/datasets/aragog", import.meta.url).pathname;
const env = { ...Deno.env.toObject(), DEMO_CORPUS: "false" };
const config = readConfig(env);
const app = createSiftApp();
const post = async (path: string, body: unknown) => {
  const response = await app.request(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  }, env);
  const json = await response.json();
  if (!response.ok) throw new Error(`${path} answered ${response.status}: ${JSON.stringify(json)}`);
  return json;
};

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

const scores = [];
for (const mode of ["dense", "sparse", "hybrid"] as const) {
  scores.push(
    await scoreMode(mode, questions, async (query) => {
      const { results } = await post("/v1/search", { query, top_k: 5, mode, namespace });
      return (results as { doc_id: string }[]).map((hit) => hit.doc_id);
    }),
  );
}
const baseline = await bm25Baseline(documents, config.chunking);
scores.push(
  await scoreMode("BM25 baseline", questions, (query) => Promise.resolve(baseline(query, 5))),
);
console.log(scoreTable(scores));

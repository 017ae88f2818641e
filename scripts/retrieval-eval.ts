import type { createSiftApp } from "../app.ts";
import { chunkDocuments, type DocumentInput } from "../shared/documents/ingest.ts";
import { hitAtK, mean, reciprocalRankAtK } from "../shared/metrics/retrieval.ts";
import { OkapiBm25 } from "../lib/vector-index/testing.ts";
import { words } from "../shared/text/analyze.ts";
import type { ChunkOptions } from "../shared/text/chunk.ts";
import { documentFromRecord } from "./documents.ts";

export type Question = {
  id: string;
  question: string;
  target_doc: string | null;
  reference_answer?: string;
};

export type ModeScore = { mode: string; hit_at_5: number; mrr_at_5: number; queries: number };

/** The ARAGOG-style dataset folder: `corpus.jsonl` and `questions.jsonl`. */
export async function readDataset(
  directory: string,
): Promise<{ documents: DocumentInput[]; questions: Question[] }> {
  const lines = async (name: string) =>
    (await Deno.readTextFile(`${directory}/${name}`)).split("\n").filter((line) => line.trim())
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  const documents = (await lines("corpus.jsonl")).map(documentFromRecord);
  const questions = (await lines("questions.jsonl")).map((record) => ({
    id: String(record.id),
    question: String(record.question),
    target_doc: typeof record.target_doc === "string" ? record.target_doc : null,
    ...(typeof record.reference_answer === "string"
      ? { reference_answer: record.reference_answer }
      : {}),
  }));
  return { documents, questions };
}

/**
 * The plain Okapi BM25 baseline (k1 = 1.2, b = 0.75; lowercased words, no
 * stop words, no stemming) over exactly the chunks the service indexes.
 */
export async function bm25Baseline(
  documents: readonly DocumentInput[],
  chunking: ChunkOptions,
): Promise<(query: string, k: number) => string[]> {
  const index = new OkapiBm25({ k1: 1.2, b: 0.75, analyzer: words });
  const docOf = new Map<string, string>();
  for (const document of await chunkDocuments(documents, chunking)) {
    for (const chunk of document.chunks) {
      index.add(chunk.id, chunk.text);
      docOf.set(chunk.id, document.id);
    }
  }
  return (query, k) => index.search(query, k).map((hit) => docOf.get(hit.id)!);
}

/** hit@5 and MRR@5 by target document, over questions that have one. */
export async function scoreMode(
  mode: string,
  questions: readonly Question[],
  retrieve: (query: string) => Promise<string[]>,
): Promise<ModeScore> {
  const answerable = questions.filter((question) => question.target_doc);
  const hits: number[] = [];
  const reciprocalRanks: number[] = [];
  for (const question of answerable) {
    const ranked = await retrieve(question.question);
    const relevant = new Set([question.target_doc!]);
    hits.push(hitAtK(ranked, relevant, 5));
    reciprocalRanks.push(reciprocalRankAtK(ranked, relevant, 5));
  }
  return {
    mode,
    hit_at_5: hits.reduce((sum, hit) => sum + hit, 0),
    mrr_at_5: mean(reciprocalRanks),
    queries: answerable.length,
  };
}

/** A markdown table of the scores. */
export function scoreTable(scores: readonly ModeScore[]): string {
  const rows = scores.map((score) =>
    `| ${score.mode} | ${score.hit_at_5}/${score.queries} (${
      (score.hit_at_5 / score.queries).toFixed(3)
    }) | ${score.mrr_at_5.toFixed(3)} |`
  );
  return ["| retrieval | hit@5 | MRR@5 |", "|---|---|---|", ...rows].join("\n");
}

/**
 * Dense, sparse and hybrid `POST /v1/search` (top 5) through `post`, and the
 * plain BM25 baseline over the same chunks: one row each.
 */
export async function retrievalScores(
  post: (path: string, body: unknown) => Promise<unknown>,
  dataset: { documents: DocumentInput[]; questions: Question[] },
  chunking: ChunkOptions,
  namespace: string,
): Promise<ModeScore[]> {
  const scores: ModeScore[] = [];
  for (const mode of ["dense", "sparse", "hybrid"] as const) {
    scores.push(
      await scoreMode(mode, dataset.questions, async (query) => {
        const { results } = await post("/v1/search", { query, top_k: 5, mode, namespace }) as {
          results: { doc_id: string }[];
        };
        return results.map((hit) => hit.doc_id);
      }),
    );
  }
  const baseline = await bm25Baseline(dataset.documents, chunking);
  scores.push(
    await scoreMode(
      "BM25 baseline",
      dataset.questions,
      (query) => Promise.resolve(baseline(query, 5)),
    ),
  );
  return scores;
}

/** A JSON `POST` to an app in this process, failing on a non-2xx reply. */
export function postInProcess(
  app: ReturnType<typeof createSiftApp>,
  env: Record<string, string>,
): (path: string, body: unknown) => Promise<unknown> {
  return async (path, body) => {
    const response = await app.request(path, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }, env);
    const json = await response.json();
    if (!response.ok) {
      throw new Error(`${path} answered ${response.status}: ${JSON.stringify(json)}`);
    }
    return json;
  };
}

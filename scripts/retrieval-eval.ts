import { chunkDocuments, type DocumentInput } from "../shared/documents/ingest.ts";
import { hitAtK, mean, reciprocalRankAtK } from "../shared/metrics/retrieval.ts";
import { Bm25Index } from "../shared/search/bm25.ts";
import { words } from "../shared/text/analyze.ts";
import type { ChunkOptions } from "../shared/text/chunk.ts";
import { documentFromRecord } from "./documents.ts";

export type Question = { id: string; question: string; target_doc: string | null };

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
  const index = new Bm25Index({ k1: 1.2, b: 0.75, analyzer: words });
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

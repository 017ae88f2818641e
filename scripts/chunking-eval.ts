/**
 * Today's token windows beside the structure-following chunker, on the same
 * documents, embedder and index, in one run: hit@5 and MRR@5 by target paper,
 * and how much of each reference answer the top 5 chunks hold.
 */
import { chunkDocuments, type ChunkDraft, type DocumentInput } from "../shared/documents/ingest.ts";
import type { Embedder } from "../shared/embeddings/port.ts";
import { hitAtK, mean, reciprocalRankAtK } from "../shared/metrics/retrieval.ts";
import { Runtime } from "../compose/runtime.ts";
import { analyze } from "../shared/text/analyze.ts";
import { type ChunkOptions, chunkText } from "../shared/text/chunk.ts";
import { LocalIndex } from "../adapters/vector-index/local.ts";
import { searchableText, type SearchMode } from "../shared/vector/port.ts";

export type ChunkerScore = {
  chunker: "windows" | "structure";
  mode: SearchMode;
  chunks: number;
  mean_chunk_tokens: number;
  hit_at_5: number;
  mrr_at_5: number;
  /** Mean over questions of the share of the reference answer's content words the top 5 chunks hold. */
  answer_words_at_5: number;
  queries: number;
};

export type AnsweredQuestion = {
  question: string;
  target_doc: string | null;
  reference_answer?: string;
};

/** The chunks `POST /v1/documents` made before #22: fixed token windows, title as header. */
export function windowChunks(documents: readonly DocumentInput[], chunking: ChunkOptions) {
  return documents.flatMap((document) =>
    chunkText(document.text, chunking).map((chunk): ChunkDraft => ({
      id: `${document.id}#${chunk.index}`,
      text: chunk.text,
      metadata: {
        doc_id: document.id!,
        chunk_index: chunk.index,
        ...(document.title ? { title: document.title } : {}),
      },
    }))
  );
}

/** The share of `reference`'s distinct content words (stemmed, no stop words) found in `texts`. */
export function answerWordShare(reference: string, texts: readonly string[]): number {
  const wanted = new Set(analyze(reference));
  if (wanted.size === 0) return 1;
  const held = new Set(analyze(texts.join("\n")));
  let found = 0;
  for (const word of wanted) if (held.has(word)) found++;
  return found / wanted.size;
}

async function scoreChunks(
  chunker: ChunkerScore["chunker"],
  drafts: ChunkDraft[],
  questions: readonly AnsweredQuestion[],
  embedder: Embedder,
): Promise<ChunkerScore[]> {
  const index = new LocalIndex();
  const namespace = "chunking";
  const vectors = await embedder.embed(drafts.map(searchableText));
  await index.upsert(drafts.map((draft, at) => ({ ...draft, vector: vectors[at]! })), {
    namespace,
  });
  const answerable = questions.filter((question) => question.target_doc);
  const queryVectors = await embedder.embed(answerable.map((question) => question.question));
  const tokens = drafts.reduce((sum, draft) => sum + draft.text.split(/\s+/).length, 0);
  const scores: ChunkerScore[] = [];
  for (const mode of ["dense", "sparse", "hybrid"] as const) {
    const hits: number[] = [];
    const reciprocal: number[] = [];
    const shares: number[] = [];
    for (const [at, question] of answerable.entries()) {
      const top = await index.query({
        text: question.question,
        vector: queryVectors[at]!,
        mode,
        topK: 5,
        namespace,
      });
      const ranked = top.map((hit) => hit.doc_id);
      const relevant = new Set([question.target_doc!]);
      hits.push(hitAtK(ranked, relevant, 5));
      reciprocal.push(reciprocalRankAtK(ranked, relevant, 5));
      if (question.reference_answer) {
        shares.push(answerWordShare(question.reference_answer, top.map((hit) => hit.text)));
      }
    }
    scores.push({
      chunker,
      mode,
      chunks: drafts.length,
      mean_chunk_tokens: tokens / Math.max(drafts.length, 1),
      hit_at_5: hits.reduce((sum, hit) => sum + hit, 0),
      mrr_at_5: mean(reciprocal),
      answer_words_at_5: mean(shares),
      queries: answerable.length,
    });
  }
  return scores;
}

/** Both chunkers over the same documents and questions, with the embedder `env` configures. */
export async function chunkerScores(
  dataset: { documents: DocumentInput[]; questions: readonly AnsweredQuestion[] },
  chunking: ChunkOptions,
  env: Record<string, string> = {},
): Promise<ChunkerScore[]> {
  const runtime = new Runtime();
  const { embedder } = runtime.deps(runtime.config({ ...env, DEMO_CORPUS: "false" }));
  const structure = (await chunkDocuments(dataset.documents, chunking))
    .flatMap((document) => document.chunks);
  return [
    ...await scoreChunks(
      "windows",
      windowChunks(dataset.documents, chunking),
      dataset.questions,
      embedder,
    ),
    ...await scoreChunks("structure", structure, dataset.questions, embedder),
  ];
}

/** A markdown table of both chunkers' scores, one row per chunker and mode. */
export function chunkerTable(scores: readonly ChunkerScore[]): string {
  const rows = scores.map((score) =>
    `| ${score.chunker} | ${score.mode} | ${score.chunks} (${
      Math.round(score.mean_chunk_tokens)
    } words) | ${score.hit_at_5}/${score.queries} (${
      (score.hit_at_5 / score.queries).toFixed(3)
    }) | ${score.mrr_at_5.toFixed(3)} | ${score.answer_words_at_5.toFixed(3)} |`
  );
  return [
    "| chunks | retrieval | chunks (mean size) | hit@5 | MRR@5 | answer words in top 5 |",
    "|---|---|---|---|---|---|",
    ...rows,
  ].join("\n");
}

/** Hybrid retrieval of both chunkers at one chunk size. */
export type SweepRow = { size: number; windows: ChunkerScore; structure: ChunkerScore };

/**
 * Both chunkers in hybrid mode at several `CHUNK_SIZE`s (same overlap): one
 * size's figures move by a question or two with where the boundaries fall,
 * so the comparison is read across sizes, not at one.
 */
export async function chunkerSweep(
  dataset: { documents: DocumentInput[]; questions: readonly AnsweredQuestion[] },
  sizes: readonly number[],
  overlap: number,
  env: Record<string, string> = {},
): Promise<SweepRow[]> {
  const rows: SweepRow[] = [];
  for (const size of sizes) {
    const scores = await chunkerScores(dataset, { size, overlap }, env);
    const hybrid = (chunker: ChunkerScore["chunker"]) =>
      scores.find((score) => score.chunker === chunker && score.mode === "hybrid")!;
    rows.push({ size, windows: hybrid("windows"), structure: hybrid("structure") });
  }
  return rows;
}

/** A markdown table of a sweep: hit@5, MRR@5 and answer words per size and chunker, then means. */
export function sweepTable(rows: readonly SweepRow[]): string {
  const cells = (score: ChunkerScore) =>
    `${score.hit_at_5} | ${score.mrr_at_5.toFixed(3)} | ${score.answer_words_at_5.toFixed(3)}`;
  const mean = (pick: (row: SweepRow) => number) =>
    rows.reduce((sum, row) => sum + pick(row), 0) / Math.max(rows.length, 1);
  return [
    "| CHUNK_SIZE | windows hit@5 | MRR@5 | answer words | structure hit@5 | MRR@5 | answer words |",
    "|---|---|---|---|---|---|---|",
    ...rows.map((row) => `| ${row.size} | ${cells(row.windows)} | ${cells(row.structure)} |`),
    `| mean | ${mean((row) => row.windows.hit_at_5).toFixed(1)} | ${
      mean((row) => row.windows.mrr_at_5).toFixed(3)
    } | ${mean((row) => row.windows.answer_words_at_5).toFixed(3)} | ${
      mean((row) => row.structure.hit_at_5).toFixed(1)
    } | ${mean((row) => row.structure.mrr_at_5).toFixed(3)} | ${
      mean((row) => row.structure.answer_words_at_5).toFixed(3)
    } |`,
  ].join("\n");
}

import {
  chunkDocuments,
  type DocumentInput,
  ingestDocuments,
} from "../../shared/documents/ingest.ts";
import { DEMO_CORPUS } from "../../shared/demo/corpus.ts";
import type { Deps } from "../../shared/deps.ts";
import type { EvalQuestion } from "./types.ts";

/** The namespace the built-in smoke dataset's corpus (sift's own docs) is ingested into. */
export const SMOKE_NAMESPACE = "eval-smoke";

/**
 * A small built-in dataset over the demo corpus, for the nightly run when
 * no `EVAL_DATASET_URL` is configured: a few answerable questions with
 * reference answers, and one the corpus cannot answer.
 */
export const SMOKE_QUESTIONS: EvalQuestion[] = [
  {
    id: "smoke-rrf",
    question: "How does reciprocal rank fusion score a passage?",
    reference_answer:
      "Each passage scores the sum over queries of the query weight divided by k plus its rank, ranks from 1 and k = 60.",
    target_doc: "sift-fusion",
  },
  {
    id: "smoke-modes",
    question: "Which retrieval modes does sift offer?",
    reference_answer:
      "Dense (embedding cosine similarity), sparse (BM25) and hybrid, which fuses both with reciprocal rank fusion.",
    target_doc: "sift-retrieval",
  },
  {
    id: "smoke-offline",
    question: "What does the offline model do when no API key is set?",
    reference_answer:
      "It is a deterministic heuristic speaking the OpenAI protocol: it answers extractively, writes query variations and embeds with a hashed lexical embedding, without the network.",
    target_doc: "sift-offline",
  },
  {
    id: "smoke-storage",
    question: "Where does sift keep its index without Upstash credentials?",
    reference_answer:
      "In process, with a snapshot saved under the .data directory; the cache is an in-memory LRU.",
    target_doc: "sift-storage",
  },
  {
    id: "smoke-ingest",
    question: "How do I add my own documents to sift?",
    reference_answer:
      "POST them to /v1/documents or run deno task ingest with a .jsonl, .md or .txt file or a folder.",
    target_doc: "sift-ingest",
  },
  {
    id: "smoke-no-answer",
    question: "What learning rate schedule did GLM-130B use during pre-training?",
    reference_answer: "The documents do not answer this question.",
    target_doc: null,
  },
];

/**
 * Ingests a corpus into `namespace` unless it is there already: the
 * namespace holding exactly as many chunks as the corpus makes counts as
 * ingested (chunking is deterministic), so a rerun costs no embeddings.
 */
export async function ensureCorpus(
  deps: Pick<Deps, "embedder" | "index" | "config">,
  documents: readonly DocumentInput[],
  namespace: string,
  signal?: AbortSignal,
): Promise<{ ingested: boolean; chunks: number }> {
  const chunked = await chunkDocuments(documents, deps.config.chunking);
  const expected = chunked.reduce((sum, document) => sum + document.chunks.length, 0);
  if (await deps.index.count({ namespace }) === expected) {
    return { ingested: false, chunks: expected };
  }
  let chunks = 0;
  // Batches keep each embedding call and upsert to a modest size.
  for (let start = 0; start < documents.length; start += 20) {
    const batch = documents.slice(start, start + 20);
    const result = await ingestDocuments(
      deps,
      { documents: batch, namespace, chunking: deps.config.chunking },
      signal,
    );
    chunks += result.chunks;
  }
  return { ingested: true, chunks };
}

/** The smoke dataset with its corpus in place. */
export async function smokeDataset(deps: Deps, signal?: AbortSignal) {
  await ensureCorpus(deps, DEMO_CORPUS, SMOKE_NAMESPACE, signal);
  return { name: "smoke", questions: SMOKE_QUESTIONS, namespace: SMOKE_NAMESPACE };
}

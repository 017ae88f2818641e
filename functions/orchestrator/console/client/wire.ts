/**
 * The JSON the console reads from sift, as the page uses it: `/v1/query`'s
 * events (functions/orchestrator/events.ts has their schemas), `/v1/search`,
 * `/v1/documents` and `/v1/evaluations/{id}`. Local on purpose: the page is
 * bundled from this folder alone, so no server module can end up in it.
 */

/** A chunk's metadata: the document's fields, and where the chunk sits in it. */
export interface ChunkMetadata {
  doc_id?: string;
  title?: string;
  /** The chunk's heading path, `A > B`. */
  section?: string;
  page?: number;
  page_end?: number;
  [field: string]: unknown;
}

/** One chunk found by a search. */
export interface SearchHit {
  id: string;
  doc_id: string;
  text: string;
  score: number;
  metadata: ChunkMetadata;
}

/** A chunk found by RAG-Fusion: `ranks[i]` is its rank for `queries[i]`. */
export interface FusedHit extends SearchHit {
  rrf_score: number;
  ranks: (number | null)[];
}

export interface QueryVariation {
  text: string;
  origin: "original" | "variation";
}

export interface Criterion {
  name: string;
  definition: string;
  weight: number;
}

export interface Rubric {
  criteria: Criterion[];
  relevance: { definition: string };
  relevance_threshold: number;
  tie_break: string;
}

/** A reranked passage's scores: `final` is relevance plus each criterion times its weight. */
export interface Scores {
  relevance: number | null;
  criteria: Record<string, number>;
  final: number;
}

export interface RerankResult {
  /** The passage's place in the retrieved list, from 0. */
  index: number;
  id?: string;
  title?: string;
  scores: Scores | null;
  reason?: string;
  degraded?: true;
}

export interface Discarded {
  index: number;
  reason: string;
}

export interface Citation {
  /** The `[n]` in the answer. */
  index: number;
  id?: string;
  title?: string;
  label?: string;
}

export interface UsageStep {
  name: string;
  via: string;
  started_ms: number;
  ended_ms: number;
  tokens_in: number;
  tokens_out: number;
}

/** `/v1/query`'s events by name, each with what its `data:` line holds. */
export interface QueryEvents {
  "retrieval-end": {
    queries: QueryVariation[];
    results: (SearchHit | FusedHit)[];
    degraded?: true;
    reason?: string;
  };
  "rubric-end": { rubric: Rubric; degraded?: boolean };
  "rerank-end": {
    results: RerankResult[];
    discarded: Discarded[];
    degraded: boolean;
    warnings?: string[];
  };
  "answer-delta": { text: string };
  "answer-end": { answer: string; citations: Citation[]; answered: boolean };
  usage: { steps: UsageStep[]; total_ms: number };
  error: { type: string; message: string; step?: string };
  done: Record<string, never>;
}

export type QueryEventName = keyof QueryEvents;

/** A handler for each event of the stream. */
export type QueryHandlers = { [Name in QueryEventName]: (data: QueryEvents[Name]) => void };

/** The body of an error reply. */
export interface ErrorBody {
  error: { type: string; message: string };
}

/** `POST /v1/documents`'s reply. */
export interface Ingested {
  namespace: string;
  chunks: number;
  documents: { id: string; chunks: number }[];
}

/** `POST /v1/search`'s reply. */
export interface Found {
  results: SearchHit[];
}

/** `GET /v1/evaluations/{id}`'s reply. */
export interface EvaluationJob {
  status: string;
  progress?: unknown;
  report_url?: string;
  summary?: unknown;
}

export type {
  ChunkMetadata,
  FilterCondition,
  IndexedChunk,
  MetadataFilter,
  SearchHit,
  SearchMode,
  StoredChunk,
} from "../../lib/vector-index/mod.ts";
export { searchableText } from "../../lib/vector-index/mod.ts";
import type {
  ChunkMetadata,
  IndexedChunk,
  MetadataFilter,
  SearchHit,
  SearchMode,
  StoredChunk,
} from "../../lib/vector-index/mod.ts";

/** One document as a listing shows it: what its first chunk says, and how many chunks it has. */
export type DocumentSummary = {
  id: string;
  title?: string;
  source?: string;
  chunks: number;
  /** When it was ingested (ISO 8601), for documents ingested since sift kept it. */
  ingested_at?: string;
};

/** One page of a namespace's documents; `cursor` continues it, absent on the last page. */
export type DocumentPage = { documents: DocumentSummary[]; cursor?: string };

export type VectorQuery = {
  /** The query's text: sparse (BM25) retrieval scores it. */
  text: string;
  /**
   * The query's dense embedding; required for dense and hybrid modes. A
   * promise of it (the embeddings call in flight) lets an adapter start on
   * what needs no vector: the embedded index scores BM25 meanwhile. Its
   * rejection fails the query.
   */
  vector?: number[] | Promise<number[]>;
  mode: SearchMode;
  topK: number;
  filter?: MetadataFilter;
  namespace: string;
};

/** A query whose vector is there: what adapters that send it elsewhere work with. */
export type ResolvedVectorQuery = Omit<VectorQuery, "vector"> & { vector?: number[] };

/** `query` with its vector awaited (the adapters that need it before they start). */
export async function resolvedVector(query: VectorQuery): Promise<ResolvedVectorQuery> {
  if (!(query.vector instanceof Promise)) return query as ResolvedVectorQuery;
  return { ...query, vector: await query.vector };
}

/**
 * The vector index port. Adapters: the in-process `LocalIndex` (dense cosine +
 * BM25 + hybrid RRF) and `UpstashVectorIndex`. Sparse vectors are the
 * adapter's business: callers pass text and a dense vector.
 */
export interface VectorIndex {
  readonly name: string;
  upsert(chunks: IndexedChunk[], options: { namespace: string }): Promise<void>;
  /**
   * Afterwards each document in `docIds` has exactly its chunks in `chunks`.
   * Crash-safe: the new chunks are durable before the old ones go, and the
   * embedded indexes make the whole change one atomic write.
   */
  replaceDocuments(
    docIds: string[],
    chunks: IndexedChunk[],
    options: { namespace: string },
  ): Promise<void>;
  query(query: VectorQuery): Promise<SearchHit[]>;
  /** Removes every chunk of a document; resolves to how many were removed. */
  deleteDocument(docId: string, options: { namespace: string }): Promise<number>;
  /** How many chunks the namespace holds. */
  count(options: { namespace: string }): Promise<number>;
  /**
   * A page of the namespace's documents, at most `limit`. `cursor` is one a
   * previous page gave (the adapter's own, opaque to callers); a cursor the
   * adapter cannot read is an `InvalidRequestError` naming `cursor`.
   */
  listDocuments(
    options: { namespace: string; limit: number; cursor?: string | undefined },
  ): Promise<DocumentPage>;
  /** A document's chunks in `chunk_index` order; empty when the namespace has no such document. */
  getDocument(docId: string, options: { namespace: string }): Promise<StoredChunk[]>;
}

export const DEFAULT_NAMESPACE = "default";

/** A document's summary from its first chunk's metadata and its chunk count. */
export function documentSummary(
  id: string,
  metadata: ChunkMetadata | undefined,
  chunks: number,
): DocumentSummary {
  const text = (value: unknown) => typeof value === "string" && value ? value : undefined;
  const title = text(metadata?.title);
  const source = text(metadata?.source);
  const ingested = text(metadata?.ingested_at);
  return {
    id,
    ...(title ? { title } : {}),
    ...(source ? { source } : {}),
    chunks,
    ...(ingested ? { ingested_at: ingested } : {}),
  };
}

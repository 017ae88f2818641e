/** Metadata kept with every chunk; `doc_id` and `chunk_index` are always set. */
export type ChunkMetadata = {
  doc_id: string;
  chunk_index: number;
  title?: string;
  url?: string;
  published?: string;
  authors?: string | string[];
  /** The file the document came from. */
  source?: string;
  /** The heading path, `A > B > C`. */
  section?: string;
  /** The page the chunk starts on (paged sources), and the last when it spans pages. */
  page?: number;
  page_end?: number;
  [key: string]: unknown;
};

/** A chunk ready for the index: its text, dense vector and metadata. */
export type IndexedChunk = {
  /** Stable: `${doc_id}#${chunk_index}`. */
  id: string;
  text: string;
  vector: number[];
  metadata: ChunkMetadata;
};

/** A chunk as the index keeps it, without its vector. */
export type StoredChunk = { id: string; text: string; metadata: ChunkMetadata };

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

export type SearchMode = "dense" | "sparse" | "hybrid";

/** One comparison on a metadata field; a bare value means equality. */
export type FilterCondition =
  | string
  | number
  | boolean
  | {
    eq?: string | number | boolean | undefined;
    ne?: string | number | boolean | undefined;
    gt?: string | number | undefined;
    gte?: string | number | undefined;
    lt?: string | number | undefined;
    lte?: string | number | undefined;
    in?: (string | number)[] | undefined;
  };

/** All conditions must hold (AND). Example: `{doc_id: "bert", published: {gte: "2019-01-01"}}`. */
export type MetadataFilter = Record<string, FilterCondition>;

export type SearchHit = {
  id: string;
  doc_id: string;
  text: string;
  score: number;
  metadata: ChunkMetadata;
};

export type VectorQuery = {
  /** The query's text: sparse (BM25) retrieval scores it. */
  text: string;
  /** The query's dense embedding; required for dense and hybrid modes. */
  vector?: number[];
  mode: SearchMode;
  topK: number;
  filter?: MetadataFilter;
  namespace: string;
};

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

/**
 * The text a chunk is matched on (embedded and BM25-indexed): its document's
 * title and its heading path (`section`) as a header, then the chunk. A chunk
 * from the middle of a paper rarely names the paper or its section; the
 * header lets "What does BERT pre-train on?" find it. The chunk's own `text`
 * stays as it was for display and answering.
 */
export function searchableText(
  chunk: { text: string; metadata: { title?: unknown; section?: unknown } },
): string {
  const header = [chunk.metadata.title, chunk.metadata.section]
    .filter((line): line is string => typeof line === "string" && line.trim() !== "")
    .map((line) => line.trim());
  return header.length ? `${header.join("\n")}\n${chunk.text}` : chunk.text;
}

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

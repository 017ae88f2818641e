/**
 * What the index stores and filters on. sift's vector port re-exports these,
 * so a chunk sift ingests is a chunk this library indexes, unchanged.
 */

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

/** One search result: the chunk, its document and its score (cosine, BM25 or fused rank). */
export type SearchHit = {
  id: string;
  doc_id: string;
  text: string;
  score: number;
  metadata: ChunkMetadata;
};

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

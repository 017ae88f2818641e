import { analyze } from "../../text/analyze.ts";
import { type ChunkMetadata, type IndexedChunk, searchableText } from "../port.ts";

/**
 * A chunk as the embedded index keeps and stores it: its dense vector
 * L2-normalized and kept sparse (only the nonzero dimensions, which for the
 * hashed lexical embedding are about 130 of 2048), and its searchable text
 * already analyzed into BM25 term counts, so loading never runs the stemmer.
 */
export type PreparedChunk = {
  id: string;
  text: string;
  metadata: ChunkMetadata;
  /** The vector's full width. */
  dimensions: number;
  /** Nonzero dimensions, ascending, and their normalized values. */
  dims: Uint32Array;
  values: Float32Array;
  /** Distinct terms of the searchable text and how often each occurs (at most 65535). */
  readonly terms: readonly string[];
  /**
   * Chunks read from one log record: the record's term list and this
   * chunk's terms as numbers into it, so a load never maps every term string.
   */
  shared?: { dictionary: readonly string[]; numbers: Uint32Array };
  counts: Uint16Array;
  /** The searchable text's length in terms, for BM25's length normalization. */
  length: number;
};

/** `vector / |vector|` as float32, the precision the index keeps. */
export function normalized(vector: readonly number[]): Float32Array {
  let norm = 0;
  for (let i = 0; i < vector.length; i++) norm += vector[i]! * vector[i]!;
  norm = Math.sqrt(norm) || 1;
  const out = new Float32Array(vector.length);
  for (let i = 0; i < vector.length; i++) out[i] = vector[i]! / norm;
  return out;
}

export function prepareChunk(chunk: IndexedChunk): PreparedChunk {
  const vector = normalized(chunk.vector);
  let nonzero = 0;
  for (const value of vector) if (value !== 0) nonzero++;
  const dims = new Uint32Array(nonzero);
  const values = new Float32Array(nonzero);
  for (let dim = 0, at = 0; dim < vector.length; dim++) {
    if (vector[dim] === 0) continue;
    dims[at] = dim;
    values[at++] = vector[dim]!;
  }
  const analyzed = analyze(searchableText(chunk));
  const counts = new Map<string, number>();
  for (const term of analyzed) counts.set(term, (counts.get(term) ?? 0) + 1);
  return {
    id: chunk.id,
    text: chunk.text,
    metadata: chunk.metadata,
    dimensions: vector.length,
    dims,
    values,
    terms: [...counts.keys()],
    counts: Uint16Array.from(counts.values(), (count) => Math.min(count, 65535)),
    length: analyzed.length,
  };
}

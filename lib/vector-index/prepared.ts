import { analyze } from "./analyze.ts";
import { type ChunkMetadata, type IndexedChunk, searchableText } from "./types.ts";

/**
 * A chunk as the embedded index keeps and stores it: its vector
 * L2-normalized, and its searchable text already analyzed into BM25 term
 * counts, so loading never runs the stemmer. A vector with few nonzero
 * dimensions (the hashed lexical embedding has about 130 of 2048) is kept
 * sparse, as `dims` and `values`; a dense one (a real model's: every
 * dimension nonzero) is `dense`, all of it in `values` and `dims` empty.
 */
export type PreparedChunk = {
  id: string;
  text: string;
  metadata: ChunkMetadata;
  /** The vector's full width. */
  dimensions: number;
  /** Nonzero dimensions, ascending, and their normalized values (all of them if `dense`). */
  dims: Uint32Array;
  values: Float32Array;
  dense?: true;
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

/**
 * Vectors this wide with more than half their dimensions nonzero are dense.
 * Narrower ones (tests' toy vectors) stay sparse and exact: quantizing three
 * dimensions to int8 would only blur them.
 */
const DENSE_MIN_DIMENSIONS = 64;

export function isDenseVector(dimensions: number, nonzero: number): boolean {
  return dimensions >= DENSE_MIN_DIMENSIONS && nonzero * 2 > dimensions;
}

/** The chunk's whole normalized vector, zeros included. */
export function denseValues(chunk: PreparedChunk): Float32Array {
  if (chunk.dense) return chunk.values;
  const vector = new Float32Array(chunk.dimensions);
  for (let i = 0; i < chunk.dims.length; i++) vector[chunk.dims[i]!] = chunk.values[i]!;
  return vector;
}

/** The chunk's nonzero dimensions and their values. */
export function sparseEntries(chunk: PreparedChunk): { dims: Uint32Array; values: Float32Array } {
  if (!chunk.dense) return { dims: chunk.dims, values: chunk.values };
  return sparseOf(chunk.values);
}

function sparseOf(vector: Float32Array): { dims: Uint32Array; values: Float32Array } {
  let nonzero = 0;
  for (const value of vector) if (value !== 0) nonzero++;
  const dims = new Uint32Array(nonzero);
  const values = new Float32Array(nonzero);
  for (let dim = 0, at = 0; dim < vector.length; dim++) {
    if (vector[dim] === 0) continue;
    dims[at] = dim;
    values[at++] = vector[dim]!;
  }
  return { dims, values };
}

export function prepareChunk(chunk: IndexedChunk): PreparedChunk {
  const vector = normalized(chunk.vector);
  let nonzero = 0;
  for (const value of vector) if (value !== 0) nonzero++;
  const dense = isDenseVector(vector.length, nonzero);
  const { dims, values } = dense ? { dims: new Uint32Array(0), values: vector } : sparseOf(vector);
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
    ...(dense ? { dense: true as const } : {}),
    terms: [...counts.keys()],
    counts: Uint16Array.from(counts.values(), (count) => Math.min(count, 65535)),
    length: analyzed.length,
  };
}

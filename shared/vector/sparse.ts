import { analyze } from "../text/analyze.ts";

/** A sparse vector as Upstash takes it: parallel arrays, indices ascending. */
export type SparseVector = { indices: number[]; values: number[] };

/**
 * Documents get saturated term frequencies; queries weigh every term 1 and
 * leave the rarity weighting (IDF) to the index, which knows the corpus.
 */
export type SparseVectorKind = "document" | "query";

/** BM25's term-frequency saturation constant. */
export const BM25_K1 = 1.2;

const FNV_OFFSET_BASIS = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/**
 * The dimension a term maps to: 32-bit FNV-1a of its UTF-8 bytes, with the top
 * bit cleared so it fits any index that reads dimensions as signed 32-bit.
 * Stable across runs and runtimes, so documents and queries embedded at
 * different times still meet on the same dimensions.
 *
 * @example
 * termIndex("transformer") === termIndex("transformer"); // true
 */
export function termIndex(term: string): number {
  let hash = FNV_OFFSET_BASIS;
  for (const byte of new TextEncoder().encode(term)) {
    hash ^= byte;
    hash = Math.imul(hash, FNV_PRIME) >>> 0;
  }
  return hash & 0x7fffffff;
}

/**
 * A deterministic bag-of-words sparse vector for Upstash sparse and hybrid
 * indexes. Terms come from `analyze` (lowercased, stop words dropped,
 * lightly stemmed), the same terms the in-process BM25 index matches on, so
 * both adapters agree on what a keyword is. Terms that hash to the same
 * index are summed into one entry.
 *
 * @example
 * sparseVector("BERT and BERT", { kind: "document" });
 * // { indices: [termIndex("bert")], values: [2 * 2.2 / (2 + 1.2)] }
 */
export function sparseVector(
  text: string,
  options: { kind: SparseVectorKind },
): SparseVector {
  const termFrequencies = new Map<string, number>();
  for (const term of analyze(text)) {
    termFrequencies.set(term, (termFrequencies.get(term) ?? 0) + 1);
  }
  const valueByIndex = new Map<number, number>();
  for (const [term, frequency] of termFrequencies) {
    const weight = options.kind === "query"
      ? 1
      : (frequency * (BM25_K1 + 1)) / (frequency + BM25_K1);
    const index = termIndex(term);
    valueByIndex.set(index, (valueByIndex.get(index) ?? 0) + weight);
  }
  const indices = [...valueByIndex.keys()].sort((a, b) => a - b);
  return {
    indices,
    values: indices.map((index) => valueByIndex.get(index) ?? 0),
  };
}

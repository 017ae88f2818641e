import { analyze } from "../text/analyze.ts";

export const HASHED_EMBEDDING_MODEL = "sift-hashed-lexical";
/**
 * Wide enough that distinct terms rarely share a slot: on the ARAGOG corpus,
 * 2048 dimensions beat 512 and 1024 on hit@5 (see the retrieval table in docs/benchmarks.md).
 */
export const HASHED_EMBEDDING_DIMENSIONS = 2048;

/** FNV-1a, 32 bits: stable across runtimes, no dependencies. */
export function fnv1a(text: string, seed = 0x811c9dc5): number {
  let hash = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

function addFeature(vector: Float64Array, feature: string, weight: number): void {
  const hash = fnv1a(feature);
  // A second bit picks the sign, so collisions cancel on average instead of piling up.
  const sign = (fnv1a(feature, 0x9e3779b9) & 1) === 0 ? 1 : -1;
  const slot = hash % vector.length;
  vector[slot] = vector[slot]! + sign * weight;
}

/**
 * A deterministic lexical embedding by feature hashing: stemmed words with
 * sublinear term frequency, each hashed to a signed slot, L2-normalized so a
 * dot product is a cosine. (Word pairs and character trigrams were tried and
 * made retrieval worse.) It is what the offline model's `/v1/embeddings`
 * returns; it is not semantic, and docs/offline-model.md says so.
 *
 * @example
 * const [a, b] = ["rank fusion", "fusing ranks"].map((t) => hashedEmbedding(t));
 */
export function hashedEmbedding(
  text: string,
  dimensions: number = HASHED_EMBEDDING_DIMENSIONS,
): number[] {
  const vector = new Float64Array(dimensions);
  const terms = analyze(text);
  const counts = new Map<string, number>();
  for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
  for (const [term, count] of counts) addFeature(vector, `w:${term}`, 1 + Math.log(count));
  let norm = 0;
  for (const value of vector) norm += value * value;
  norm = Math.sqrt(norm);
  return Array.from(vector, (value) => (norm === 0 ? 0 : value / norm));
}

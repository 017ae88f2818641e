import { analyze } from "../text/analyze.ts";

export const HASHED_EMBEDDING_MODEL = "sift-hashed-lexical";
export const HASHED_EMBEDDING_DIMENSIONS = 512;

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
 * A deterministic lexical embedding by feature hashing: stemmed words,
 * word pairs and character trigrams, with sublinear term frequency,
 * L2-normalized so a dot product is a cosine. It is what the offline model's
 * `/v1/embeddings` returns; it is not semantic, and the README says so.
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
  for (const [term, count] of counts) {
    const weight = 1 + Math.log(count);
    addFeature(vector, `w:${term}`, weight);
    const padded = `#${term}#`;
    for (let i = 0; i + 3 <= padded.length; i++) {
      addFeature(vector, `c:${padded.slice(i, i + 3)}`, 0.25 * weight);
    }
  }
  for (let i = 0; i + 1 < terms.length; i++) {
    addFeature(vector, `b:${terms[i]} ${terms[i + 1]}`, 0.5);
  }
  let norm = 0;
  for (const value of vector) norm += value * value;
  norm = Math.sqrt(norm);
  return Array.from(vector, (value) => (norm === 0 ? 0 : value / norm));
}

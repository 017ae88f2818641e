/**
 * ToT-RAG's evaluation dimensions (paper 003 §3.2): the first level of the
 * tree judges a candidate's text quality on its own, the second its
 * similarity to the query. The agent of each level picks two of its five.
 */
export const QUALITY_DIMENSIONS = [
  "fluency",
  "accuracy",
  "completeness",
  "conciseness",
  "novelty",
] as const;

export const SIMILARITY_DIMENSIONS = [
  "lexical",
  "semantic",
  "pragmatic",
  "structural",
  "stylistic",
] as const;

export type QualityDimension = typeof QUALITY_DIMENSIONS[number];
export type SimilarityDimension = typeof SIMILARITY_DIMENSIONS[number];
export type TotDimension = QualityDimension | SimilarityDimension;

/** The tree's two levels: `quality` first, then `similarity`. */
export type TotLevelKind = "quality" | "similarity";

/** The dimensions a level chooses from, in the paper's order. */
export function dimensionsOf(kind: TotLevelKind): readonly TotDimension[] {
  return kind === "quality" ? QUALITY_DIMENSIONS : SIMILARITY_DIMENSIONS;
}

/**
 * The level a dimension belongs to, or undefined for another word.
 *
 * @example
 * levelOf("lexical"); // "similarity"
 */
export function levelOf(name: string): TotLevelKind | undefined {
  if ((QUALITY_DIMENSIONS as readonly string[]).includes(name)) return "quality";
  if ((SIMILARITY_DIMENSIONS as readonly string[]).includes(name)) return "similarity";
  return undefined;
}

import { words } from "../../shared/text/analyze.ts";

/** Token sets this similar (Jaccard) are the same question in other words. */
export const NEAR_DUPLICATE_JACCARD = 0.8;

/** Case, whitespace and punctuation do not make a question different. */
export function normalizeQuestion(question: string): string {
  return question.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim();
}

/** |A ∩ B| / |A ∪ B|; two empty sets are identical. */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let shared = 0;
  for (const token of a) if (b.has(token)) shared++;
  return shared / (a.size + b.size - shared);
}

/**
 * The first of each group of duplicates, in order: exact duplicates after
 * normalizing, and near-duplicates whose word sets overlap by Jaccard ≥ 0.8
 * ("How does BM25 saturate term frequency?" / "... saturate the term frequency").
 *
 * @example
 * dedupeQuestions([{ question: "What is RRF?" }, { question: "what is rrf" }]).length; // 1
 */
export function dedupeQuestions<T extends { question: string }>(items: readonly T[]): T[] {
  const kept: { item: T; key: string; tokens: Set<string> }[] = [];
  for (const item of items) {
    const key = normalizeQuestion(item.question);
    const tokens = new Set(words(item.question));
    const duplicate = kept.some((other) =>
      other.key === key || jaccard(other.tokens, tokens) >= NEAR_DUPLICATE_JACCARD
    );
    if (!duplicate) kept.push({ item, key, tokens });
  }
  return kept.map(({ item }) => item);
}

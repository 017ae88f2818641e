import { analyze, stem } from "../../../shared/text/analyze.ts";

/**
 * Words that shape a question rather than name its topic ("explain the main
 * role of ..."); matching on them would let any document look relevant.
 */
export const QUESTION_WORDS: ReadonlySet<string> = new Set(
  ("what how why when where which who describe explain main role purpose tell list give show " +
    "define definition mean meaning please know does do can")
    .split(" ").map(stem),
);

/** The topic terms of a question: analyzed, without question words, each once. */
export function contentTerms(question: string): string[] {
  return [...new Set(analyze(question).filter((term) => !QUESTION_WORDS.has(term)))];
}

/**
 * Splits prose into sentences at end punctuation followed by space, and at
 * blank lines; whitespace inside a sentence is collapsed, since documents
 * arrive with their line breaks.
 *
 * @example
 * splitSentences("RRF fuses ranks. It uses k = 60."); // ["RRF fuses ranks.", "It uses k = 60."]
 */
export function splitSentences(text: string): string[] {
  return text
    .split(/\n\s*\n|(?<=[.!?])\s+(?=\S)/)
    .map((sentence) => sentence.replace(/\s+/g, " ").trim())
    .filter((sentence) => /[\p{L}\p{N}]/u.test(sentence));
}

/**
 * BM25's inverse document frequency over the given texts (always positive).
 * A term no text contains weighs as much as the rarest one found, so a
 * single missing word does not outweigh everything the texts do cover.
 */
export function inverseDocumentFrequency(
  texts: readonly string[],
): (term: string) => number {
  const termSets = texts.map((text) => new Set(analyze(text)));
  const total = termSets.length;
  return (term) => {
    const frequency = Math.max(1, termSets.filter((terms) => terms.has(term)).length);
    return Math.log(1 + (total - frequency + 0.5) / (frequency + 0.5));
  };
}

/**
 * Identifiers in a question ("GLM-130B", "BM25", "RoBERTa"): tokens with a
 * digit or two capitals. A grounded answer needs them verbatim, so if one is
 * missing from the documents they cannot answer the question.
 */
export function identifiers(question: string): string[] {
  return question
    .split(/\s+/)
    .map((token) => token.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ""))
    .filter((token) => /\d/.test(token) || (token.match(/\p{Lu}/gu)?.length ?? 0) >= 2);
}

/** The sentence carrying the most distinct topic terms (the first one on a tie). */
export function mostInformativeSentence(text: string): string | undefined {
  let best: { sentence: string; score: number } | undefined;
  for (const sentence of splitSentences(text)) {
    const score = new Set(analyze(sentence)).size;
    if (!best || score > best.score) best = { sentence, score };
  }
  return best?.sentence;
}

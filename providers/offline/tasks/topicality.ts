import { analyze } from "../../../shared/text/analyze.ts";
import type { NumberedDocument } from "./numbered.ts";
import { contentTerms, inverseDocumentFrequency } from "./text.ts";

/**
 * Verbs that frame a question ("how does X work?") without naming its
 * topic, beyond the answer task's question words.
 */
const FRAMING_WORDS = new Set(analyze("work works working happen happens"));

/** How much of the question one document covers. */
export type Topicality = {
  /** IDF-weighted share of the question's terms the document contains, 0-1. */
  coverage: number;
  /** The question's terms the document contains, in question order. */
  matched: string[];
  /** The question's terms (what `coverage` is a share of). */
  terms: string[];
  /** The document's own terms (title and text), for the criteria. */
  documentTerms: Set<string>;
};

/** A document's title and text: what a reader sees of it as topic. */
export function documentText(document: NumberedDocument): string {
  return `${document.title}\n${document.text}`;
}

/**
 * Scores every document against the question: the IDF-weighted share of the
 * question's topic terms it contains, IDF taken across the batch so a word
 * every document shares counts for little. Question words ("what", "how",
 * "describe") are left out, since any document would match them.
 *
 * @example
 * topicality("What is BM25?", documents)[0]?.coverage; // 1 when the first document says "BM25"
 */
export function topicality(
  question: string,
  documents: readonly NumberedDocument[],
): Topicality[] {
  // A question of only question words ("What is it?") still has something to match on.
  const content = contentTerms(question).filter((term) => !FRAMING_WORDS.has(term));
  const terms = content.length > 0 ? content : [...new Set(analyze(question))];
  const texts = documents.map(documentText);
  const idf = inverseDocumentFrequency(texts);
  const total = terms.reduce((sum, term) => sum + idf(term), 0);
  return texts.map((text) => {
    const documentTerms = new Set(analyze(text));
    const matched = terms.filter((term) => documentTerms.has(term));
    const found = matched.reduce((sum, term) => sum + idf(term), 0);
    return { coverage: total > 0 ? found / total : 0, matched, terms, documentTerms };
  });
}

/** Rounds to `digits` decimals, for scores a model would write. */
export function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

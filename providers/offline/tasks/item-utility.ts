import { type NumberedDocument } from "./numbered.ts";
import { questionTerms, share, topicTerms } from "./judge-prompt.ts";
import type { ItemPassage } from "./item-prompt.ts";
import { topicality } from "./topicality.ts";

/** What the offline pseudo-answer says when the passages do not cover the question. */
export const NO_PSEUDO_ANSWER = "The passages do not answer the question.";

/** A passage is useful at or above this utility (half the question, half the answer). */
export const USEFUL_AT = 0.5;

/** The terms of a pseudo-answer that can vouch for a passage: none for a non-answer. */
function answerTerms(answer: string | undefined): string[] {
  if (!answer || answer.includes(NO_PSEUDO_ANSWER)) return [];
  return [...topicTerms(answer.replace(/^\s*necessary information\s*:/i, ""))];
}

/**
 * The offline utility of one passage: the share of the question's topic
 * terms it contains, averaged with the share of the pseudo-answer's terms
 * (the question's share alone when there is no usable answer). It needs no
 * other passage, so a listwise and a pointwise judgment agree.
 *
 * @example
 * utilityOf("What is BM25?", "BM25 is a ranking function.", "BM25 is a ranking function."); // 1
 */
export function utilityOf(question: string, answer: string | undefined, text: string): number {
  const found = topicTerms(text);
  const onQuestion = share(questionTerms(question), found);
  const terms = answerTerms(answer);
  if (terms.length === 0) return onQuestion;
  return (onQuestion + share(terms, found)) / 2;
}

/** Useful: on the question's topic at all, and useful enough overall. */
export function isUseful(question: string, answer: string | undefined, text: string): boolean {
  const found = topicTerms(text);
  return share(questionTerms(question), found) > 0 &&
    utilityOf(question, answer, text) >= USEFUL_AT;
}

/** Passage numbers by utility, best first; the earlier shown first on a tie. */
export function rankByUtility(
  question: string,
  answer: string | undefined,
  passages: readonly ItemPassage[],
): number[] {
  return passages
    .map((passage, order) => ({
      passage,
      order,
      utility: utilityOf(question, answer, passage.text),
    }))
    .sort((a, b) => b.utility - a.utility || a.order - b.order)
    .map(({ passage }) => passage.number);
}

/**
 * Passage numbers by topical relevance: IDF-weighted coverage of the
 * question's terms across the passages shown (as the rerank task scores
 * relevance), then utility, then the order shown.
 */
export function rankByRelevance(
  question: string,
  answer: string | undefined,
  passages: readonly ItemPassage[],
): number[] {
  const documents: NumberedDocument[] = passages.map((passage) => ({
    number: passage.number,
    title: "",
    source: "",
    url: "",
    published: "",
    authors: "",
    text: passage.text,
  }));
  const topics = topicality(question, documents);
  return passages
    .map((passage, order) => ({
      passage,
      order,
      coverage: topics[order]!.coverage,
      utility: utilityOf(question, answer, passage.text),
    }))
    .sort((a, b) => b.coverage - a.coverage || b.utility - a.utility || a.order - b.order)
    .map(({ passage }) => passage.number);
}

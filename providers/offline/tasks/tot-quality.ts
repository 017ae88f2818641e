import { analyze, words } from "../../../shared/text/analyze.ts";
import type { QualityDimension } from "../../../shared/rerank/tot/dimensions.ts";
import { splitSentences } from "./text.ts";

/*
 * The offline model's text-quality heuristics for ToT-RAG's first level:
 * typography and length, nothing a model would need to understand. Each
 * is in [0, 1].
 */

const clamp = (value: number) => Math.min(1, Math.max(0, value));

const HEDGES =
  /\b(?:might|maybe|perhaps|possibly|allegedly|rumou?red|reportedly|supposedly|unclear|some say|it is said|probably)\b/gi;
const CITATION = /\[\d+(?:\s*[,–-]\s*\d+)*\]|\bet al\./;

/** Sentences that start with a capital or digit, end with end punctuation, and run 4-40 words. */
function fluency(text: string): number {
  const sentences = splitSentences(text);
  if (sentences.length === 0) return 0;
  const wellFormed = sentences.filter((sentence) => {
    const count = words(sentence).length;
    return /^["'(\[]?[\p{Lu}\p{N}]/u.test(sentence) && /[.!?]["')\]]?$/.test(sentence) &&
      count >= 4 && count <= 40;
  }).length;
  // Symbols that are neither words nor punctuation (markup, mojibake) read badly.
  const noise = (text.match(/[^\p{L}\p{N}\s.,;:!?'"()\[\]%\/=+–-]/gu)?.length ?? 0) /
    Math.max(1, text.length);
  return clamp(wellFormed / sentences.length - 5 * noise);
}

/** Specific, sourced statements score higher; hedges and questions lower. */
function accuracy(text: string): number {
  const hedges = text.match(HEDGES)?.length ?? 0;
  return clamp(
    0.5 + (/\d/.test(text) ? 0.15 : 0) + (CITATION.test(text) ? 0.15 : 0) +
      (/\s\p{Lu}/u.test(text) ? 0.1 : 0) - 0.2 * hedges - (text.includes("?") ? 0.25 : 0),
  );
}

/** Long enough to make a point (about 40 words), and not cut off mid-sentence. */
function completeness(text: string): number {
  const count = words(text).length;
  const ended = /[.!?]["')\]]?\s*$/.test(text.trim());
  return clamp(Math.sqrt(Math.min(1, count / 40)) * (ended ? 1 : 0.6));
}

/** Few repeated terms, and not longer than a paragraph needs. */
function conciseness(text: string): number {
  const terms = analyze(text);
  if (terms.length === 0) return 0;
  const distinct = new Set(terms).size / terms.length;
  return clamp(distinct * Math.min(1, 80 / words(text).length));
}

/** The share of distinct terms that are specific: figures, names, long technical words. */
function novelty(text: string): number {
  const named = new Set(
    [...text.matchAll(/(?<=\S\s+)\p{Lu}[\p{L}\p{N}-]*/gu)].flatMap((match) => analyze(match[0])),
  );
  const terms = [...new Set(analyze(text))];
  if (terms.length === 0) return 0;
  const specific = terms.filter((term) => /\d/.test(term) || named.has(term) || term.length >= 9);
  return clamp((2 * specific.length) / terms.length);
}

const HEURISTICS: Readonly<Record<QualityDimension, (text: string) => number>> = {
  fluency,
  accuracy,
  completeness,
  conciseness,
  novelty,
};

/**
 * A passage's score on one quality dimension, rounded to two decimals.
 *
 * @example
 * qualityScore("fluency", "BM25 ranks documents by term statistics."); // 1
 */
export function qualityScore(dimension: QualityDimension, text: string): number {
  return Math.round(HEURISTICS[dimension](text) * 100) / 100;
}

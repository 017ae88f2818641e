import { analyze, words } from "../../../shared/text/analyze.ts";
import type { NumberedDocument } from "./numbered.ts";
import { contentTerms, identifiers, splitSentences } from "./text.ts";
import type { Topicality } from "./topicality.ts";

/** A secondary criterion as a rerank prompt states it. */
export type CriterionLine = { key: string; label: string; weight: number; definition: string };

/** What a criterion heuristic may look at for one document. */
export type CriterionContext = {
  document: NumberedDocument;
  topic: Topicality;
  /** "Now" as a fractional year; `undefined` when nothing in the batch is dated. */
  referenceYear: number | undefined;
};

const MAX = 5;
const clamp = (score: number) => Math.min(MAX, Math.max(0, Math.round(score)));

// Where depth stops growing with length: a long paragraph, not a page.
const FULL_DEPTH_WORDS = 150;
// Each year of age keeps this share of the recency score: 5, 4, 3, 2, 2, 1 ...
const YEARLY_DECAY = 0.75;

/** Phrases that set one view or method against another. */
const CONTRASTS = [
  /\bhowever\b/,
  /\bwhereas\b/,
  /\bin contrast\b/,
  /\bon the other hand\b/,
  /\bcompared\b/,
  /\bversus\b|\bvs\.?(?=\s)/,
  /\balternatively\b/,
  /\bsome\b[^.]*\bothers\b/,
];
const SCHOLARLY_SOURCE = /arxiv|doi\.org|\bdoi:|\.edu\b|\.gov\b/i;
const CITATION = /\[\d+(?:\s*[,–-]\s*\d+)*\]/;
const YEAR = /\b(19\d\d|20\d\d)(?:-(\d\d))?/g;
/** Words every rubric definition uses; matching on them says nothing about the criterion. */
const RUBRIC_WORDS = new Set(
  analyze(
    "document documents discuss discusses cover covers topic question query state states " +
      "give gives present presents look looks like side sides source sources",
  ),
);

/** Years (with the month as a fraction when given) found in text. */
function yearsIn(text: string): number[] {
  return [...text.matchAll(YEAR)].map((match) =>
    Number(match[1]) + (match[2] ? (Number(match[2]) - 1) / 12 : 0)
  );
}

/**
 * When a document was written, as a fractional year: its `published` date,
 * else the newest year its text mentions no later than `notAfter` (a
 * document cites the past, and a number like 2048 is seldom a year).
 */
export function documentYear(document: NumberedDocument, notAfter = Infinity): number | undefined {
  const published = yearsIn(document.published)[0];
  if (published !== undefined) return published;
  const mentioned = yearsIn(document.text).filter((year) => year <= notAfter);
  return mentioned.length > 0 ? Math.max(...mentioned) : undefined;
}

function depth({ document, topic }: CriterionContext): number {
  const length = Math.min(1, Math.sqrt(words(document.text).length / FULL_DEPTH_WORDS));
  return clamp(MAX * topic.coverage * length);
}

function diversity({ document }: CriterionContext): number {
  const text = document.text.toLowerCase();
  const found = CONTRASTS.filter((pattern) => pattern.test(text)).length;
  return clamp(found === 0 ? 0 : found + 1);
}

function clarity({ document }: CriterionContext): number {
  const sentences = splitSentences(document.text);
  if (sentences.length === 0) return 0;
  const numbers = document.text.match(/\d+(?:\.\d+)?/g)?.length ?? 0;
  const named = identifiers(document.text).some((token) => /\p{L}/u.test(token));
  const perSentence = words(document.text).length / sentences.length;
  // Very short sentences are fragments; very long ones bury the point.
  const length = perSentence >= 8 && perSentence <= 30
    ? 2
    : perSentence >= 5 && perSentence <= 40
    ? 1
    : 0;
  return clamp((numbers >= 3 ? 2 : numbers >= 1 ? 1 : 0) + (named ? 1 : 0) + length);
}

function authoritativeness({ document }: CriterionContext): number {
  const where = `${document.url} ${document.source}`;
  return clamp(
    (document.authors.trim() ? 2 : 0) +
      (/\bet al\./i.test(document.text) ? 1 : 0) +
      (SCHOLARLY_SOURCE.test(where) || SCHOLARLY_SOURCE.test(document.text) ? 1 : 0) +
      (CITATION.test(document.text) ? 1 : 0),
  );
}

function recency({ document, referenceYear }: CriterionContext): number {
  const year = documentYear(document, referenceYear);
  if (year === undefined || referenceYear === undefined) return 0;
  return clamp(MAX * YEARLY_DECAY ** Math.max(0, referenceYear - year));
}

/** A criterion we have no heuristic for: how much of its wording the document shares. */
function overlap(criterion: CriterionLine, { topic }: CriterionContext): number {
  const terms = contentTerms(criterion.definition).filter((term) => !RUBRIC_WORDS.has(term));
  if (terms.length === 0) return 0;
  const found = terms.filter((term) => topic.documentTerms.has(term)).length;
  // Definitions are wordy; sharing half their terms is already a strong match.
  return clamp(MAX * Math.min(1, (2 * found) / terms.length));
}

const HEURISTICS: Readonly<Record<string, (context: CriterionContext) => number>> = {
  depth,
  diversity,
  clarity,
  authoritativeness,
  recency,
};

/**
 * A criterion's 0-5 integer score for one document: a heuristic for the
 * one-turn rubric's five criteria, word overlap with the definition for any
 * other (a generated rubric's `actionability`, say).
 *
 * @example
 * scoreCriterion({ key: "recency", label: "Recency", weight: 0.5, definition: "" }, context); // 0-5
 */
export function scoreCriterion(criterion: CriterionLine, context: CriterionContext): number {
  const heuristic = Object.hasOwn(HEURISTICS, criterion.key)
    ? HEURISTICS[criterion.key]
    : undefined;
  return heuristic ? heuristic(context) : overlap(criterion, context);
}

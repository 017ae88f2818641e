import { hashedEmbedding } from "../../../shared/embeddings/hashed.ts";
import { analyze, words } from "../../../shared/text/analyze.ts";
import type { SimilarityDimension } from "../../../shared/rerank/tot/dimensions.ts";
import { contentTerms, identifiers } from "./text.ts";

/*
 * The offline model's similarity heuristics for ToT-RAG's second level:
 * term overlap in several guises. Each is in [0, 1].
 */

const clamp = (value: number) => Math.min(1, Math.max(0, value));

function queryTerms(query: string): string[] {
  const terms = contentTerms(query);
  return terms.length > 0 ? terms : [...new Set(analyze(query))];
}

/** The share of the query's topic terms the passage contains. */
function lexical(query: string, text: string): number {
  const terms = queryTerms(query);
  const found = new Set(analyze(text));
  return terms.length === 0 ? 0 : terms.filter((term) => found.has(term)).length / terms.length;
}

/**
 * The cosine of the hashed embeddings the offline retriever uses, square
 * rooted because a short query against a paragraph rarely gets past 0.5.
 * (It is still lexical underneath; the offline model is honest about that.)
 */
function semantic(query: string, text: string): number {
  const [a, b] = [hashedEmbedding(query), hashedEmbedding(text)];
  const cosine = a.reduce((sum, value, i) => sum + value * (b[i] ?? 0), 0);
  return clamp(Math.sqrt(Math.max(0, cosine)));
}

/** What the query asks for, and a cue in a passage that gives it. */
const INTENTS: readonly { asks: RegExp; gives: RegExp }[] = [
  { asks: /\b(?:when|what year|what date)\b/i, gives: /\b(?:1[5-9]|20)\d\d\b/ },
  { asks: /\bhow (?:many|much|long|large|often)\b|\bwhat (?:percentage|number)\b/i, gives: /\d/ },
  { asks: /\bwho\b/i, gives: /\p{Lu}\p{Ll}+\s+\p{Lu}\p{Ll}+/u },
  {
    asks: /\bwhy\b/i,
    gives: /\b(?:because|since|due to|so that|therefore|as a result|leads? to)\b/i,
  },
  {
    asks: /\b(?:compare[ds]?|comparison|differ\w*|versus|vs\.?|better|worse)\b/i,
    gives: /\b(?:whereas|however|compared|unlike|than|while|on the other hand|both)\b/i,
  },
  {
    asks: /\bhow (?!many|much|long|large|often)\w+/i,
    gives: /\b(?:by|using|uses?|through|via|steps?|first|then|computes?|combines?)\b/i,
  },
  {
    asks: /\bwhat (?:is|are)\b|\bdefin\w*|\bmeaning of\b/i,
    gives: /\b(?:is an?|are|refers to|means|defined as|is the)\b/i,
  },
];

/** Half for giving the kinds of information the query asks for, half for its topic. */
function pragmatic(query: string, text: string): number {
  const asked = INTENTS.filter((intent) => intent.asks.test(query));
  const given = asked.length === 0
    ? 0.5
    : asked.filter((intent) => intent.gives.test(text)).length / asked.length;
  return clamp(0.5 * given + 0.5 * lexical(query, text));
}

/** How much of the query's term order the passage keeps: LCS over terms, over the query's length. */
function structural(query: string, text: string): number {
  const wanted = analyze(query);
  const present = new Set(wanted);
  const sequence = analyze(text).filter((term) => present.has(term));
  if (wanted.length === 0) return 0;
  let previous = new Array<number>(sequence.length + 1).fill(0);
  for (const term of wanted) {
    const row = [0];
    for (let j = 1; j <= sequence.length; j++) {
      row[j] = sequence[j - 1] === term
        ? previous[j - 1]! + 1
        : Math.max(previous[j]!, row[j - 1]!);
    }
    previous = row;
  }
  return previous[sequence.length]! / wanted.length;
}

function style(text: string) {
  const all = words(text);
  const count = Math.max(1, all.length);
  return {
    wordLength: all.reduce((sum, word) => sum + word.length, 0) / count,
    technical: identifiers(text).length / count,
  };
}

/** Closeness of word length and of the share of technical tokens (names with digits or capitals). */
function stylistic(query: string, text: string): number {
  const [a, b] = [style(query), style(text)];
  return clamp(
    1 - 0.5 * Math.min(1, Math.abs(a.wordLength - b.wordLength) / 3) -
      0.5 * Math.min(1, 2 * Math.abs(a.technical - b.technical)),
  );
}

const HEURISTICS: Readonly<
  Record<SimilarityDimension, (query: string, text: string) => number>
> = { lexical, semantic, pragmatic, structural, stylistic };

/**
 * A passage's similarity to the query on one dimension, rounded to two decimals.
 *
 * @example
 * similarityScore("lexical", "What is BM25?", "BM25 ranks documents."); // 1
 */
export function similarityScore(
  dimension: SimilarityDimension,
  query: string,
  text: string,
): number {
  return Math.round(HEURISTICS[dimension](query, text) * 100) / 100;
}

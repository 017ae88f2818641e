import { stemmer as porterStem } from "stemmer";

/** Common English words that carry no topic; dropped before term matching. */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  ("a about above after again against all am an and any are as at be because been before being " +
    "below between both but by can could did do does doing down during each few for from further " +
    "had has have having he her here hers him his how i if in into is it its itself just me more " +
    "most my no nor not now of off on once only or other our ours out over own same she should so " +
    "some such than that the their theirs them then there these they this those through to too " +
    "under until up very was we were what when where which while who whom why will with would you " +
    "your yours also may might must shall us")
    .split(" "),
);

/**
 * Porter's stemmer, so "models", "modelling" and "modeled" meet; words with
 * digits ("gpt4", "130b") are names and stay as they are.
 */
export function stem(word: string): string {
  return word.length <= 2 || /\d/.test(word) ? word : porterStem(word);
}

/**
 * Stems already taken: a corpus repeats its words, and Porter's rules cost
 * a few µs a word (most of what adding a chunk cost). Bounded: cleared when full.
 */
const STEMS = new Map<string, string>();
const STEMS_HELD = 200_000;

function cachedStem(word: string): string {
  let stemmed = STEMS.get(word);
  if (stemmed === undefined) {
    if (STEMS.size >= STEMS_HELD) STEMS.clear();
    STEMS.set(word, stemmed = stem(word));
  }
  return stemmed;
}

const WORD_PATTERN = /[\p{L}\p{N}]+/gu;

/** Lowercased words, split on anything that is not a letter or digit. */
export function words(text: string): string[] {
  return text.toLowerCase().match(WORD_PATTERN) ?? [];
}

/**
 * The terms sift matches on: lowercased words without stop words, stemmed.
 *
 * @example
 * analyze("The models were trained"); // ["model", "train"]
 */
export function analyze(text: string): string[] {
  const terms: string[] = [];
  for (const word of words(text)) {
    if (!STOP_WORDS.has(word)) terms.push(cachedStem(word));
  }
  return terms;
}

import { isRefusal, normalizeReply, withoutQuotedText } from "../../../shared/llm/reply-text.ts";

/**
 * RankGPT's passage identifiers read back out of a model's reply. Passages
 * are shown as `[1]`…`[N]` in presentation order; a ranking or a set is
 * written `[3] > [1] > [2]`. Models add prose, markdown, lists like
 * `[2, 3, 15]` (ITEM's own examples), repeats and numbers that name no
 * passage, so the reader is deliberately forgiving in what it finds and
 * strict in what it keeps.
 */

/** An explicit empty selection: `None`, `[]`. */
const EXPLICIT_NONE = /^\W*none\b|\[\s*\]/i;
/** `Passage 2`, `Document 2`, `Doc #2`, `Passage [2]`: an identifier written out. */
const NAMED = /\b(?:passage|document|doc)\s*#?\s*\[?(\d+)\]?/gi;
/** A leading label (`Ranking:`, `My selection:`) or list marker (`1.`, `-`). */
const LEAD = /^\s*(?:(?:\d+[.)]|[-*•])\s+)?(?:[A-Za-z][\w\s]{0,30}:\s*)?/;

/**
 * A line's identifiers when the line holds nothing else (after its label or
 * list marker): bracketed or bare numbers joined by `>`, commas, `and`, `then`.
 * A bare number alone is list numbering, not an identifier.
 */
function identifierLine(line: string): number[] | undefined {
  const plain = line.replace(/[*_`]/g, "").replace(NAMED, "[$1]");
  const body = plain.replace(LEAD, "").trim();
  const rest = body.replace(/\b(?:and|then)\b|[\d\s,;>.[\]]/gi, "");
  if (rest !== "" || !/\[\s*\d|\d\s*>/.test(body)) return undefined;
  return [...body.matchAll(/\d+(?:\.\d+)?/g)].map((match) => Number(match[0]));
}

/**
 * The identifiers in 1..count a reply names, each once, in the order first
 * written. Read from its ranking lines: the last line that chains
 * identifiers with `>` (a final ranking after a draft), else every line that
 * holds only identifiers (`[2, 3, 15]`, a numbered list of `[2]`, `Passage
 * 2 > Passage 1`). Identifiers cited in prose ("[2] states the year, as [1]
 * does") name nothing: such a reply is unreadable. Out-of-range numbers
 * (`[0]`, `[99]`) are ignored; a repeat keeps its first place.
 *
 * @example
 * identifiersIn("Ranking: [3] > [1] > [3] > [9]", 3); // [3, 1]
 */
export function identifiersIn(reply: string, count: number): number[] {
  // A sentence is a line of its own: "My selection: [2], [5]. Passage 4 was close." holds one.
  const lines = reply.split(/\r?\n|(?<=[.!?])\s+(?=[A-Z])/)
    .map((line) => ({ line, ids: identifierLine(line) }))
    .filter((entry): entry is { line: string; ids: number[] } => entry.ids !== undefined);
  const chains = lines.filter((entry) => entry.line.includes(">"));
  const numbers = chains.length > 0 ? chains.at(-1)!.ids : lines.flatMap((entry) => entry.ids);
  return keepValid(numbers, count);
}

/** Integers in 1..count, each once, first occurrence first (also for JSON arrays). */
export function keepValid(numbers: readonly unknown[], count: number): number[] {
  const kept: number[] = [];
  for (const value of numbers) {
    if (typeof value !== "number" || !Number.isInteger(value)) continue;
    if (value < 1 || value > count || kept.includes(value)) continue;
    kept.push(value);
  }
  return kept;
}

/**
 * A whole ranking as 0-based presentation positions: the identifiers
 * written, then every passage the model left out, in the order it was shown.
 * `undefined` when the reply names no passage at all (the caller keeps the
 * previous ranking).
 *
 * @example
 * completeRanking([3, 1], 4); // [2, 0, 1, 3]
 */
export function completeRanking(
  identifiers: readonly number[],
  count: number,
): number[] | undefined {
  const named = keepValid(identifiers, count);
  if (named.length === 0) return undefined;
  const positions = named.map((identifier) => identifier - 1);
  for (let position = 0; position < count; position++) {
    if (!positions.includes(position)) positions.push(position);
  }
  return positions;
}

/**
 * A selection as 0-based presentation positions, in the order written: `[]`
 * for an explicit "none", `undefined` when the reply is empty or names
 * nothing usable (the caller keeps the previous set).
 *
 * @example
 * readSelection("My selection: [2] > [5]", 5); // [1, 4]
 * readSelection("None.", 5); // []
 */
export function readSelection(reply: string, count: number): number[] | undefined {
  const text = normalizeReply(reply);
  if (isRefusal(text)) return undefined;
  const named = identifiersIn(text, count);
  if (named.length > 0) return named.map((identifier) => identifier - 1);
  if (EXPLICIT_NONE.test(text.trim())) return [];
  const prose = proseSelection(text, count);
  return prose && prose.length > 0 ? prose.map((identifier) => identifier - 1) : undefined;
}

/**
 * A ranking reply as 0-based presentation positions, completed (see
 * `completeRanking`); `undefined` when it names no passage.
 */
export function readRanking(reply: string, count: number): number[] | undefined {
  const text = normalizeReply(reply);
  if (isRefusal(text)) return undefined;
  const named = identifiersIn(text, count);
  return completeRanking(named.length > 0 ? named : proseRanking(text, count), count);
}

/** `passages 1, 3 and 4` → `[1], [3] and [4]`: a written-out list of identifiers. */
function bracketed(text: string): string {
  return withoutQuotedText(text).replace(/[*_`]/g, "")
    .replace(
      /\b(?:passages?|documents?|docs?)\s+((?:#?\[?\d+\]?\s*(?:,|and|&|or)?\s*)+)/gi,
      (_, list: string) => list.replace(/#?\[?(\d+)\]?/g, "[$1]"),
    );
}

function bracketedIn(text: string): number[] {
  return [...text.matchAll(/\[(\d+)\]/g)].map((match) => Number(match[1]));
}

/** Words that make a sentence a ranking: "followed by", "then", "from most to least". */
const RANKING_CUE =
  /\b(?:followed\s+by|then|next|finally|most\s+(?:useful|relevant|helpful)|least|from\s+(?:most|best)|in\s+(?:this|descending|the\s+following)\s+order|rank(?:ing|ed|s)?|order)\b|>/i;

/**
 * A ranking written as prose: "The most useful passage is [3], followed by
 * [1], then [4], and finally [2]." The last sentence with a ranking cue and
 * two or more identifiers gives the order; identifiers cited without one
 * ("[2] states the year, as [1] does") are none.
 */
function proseRanking(text: string, count: number): number[] {
  const sentences = bracketed(text).split(/(?<=[.!?])\s+|\n/)
    .filter((sentence) => RANKING_CUE.test(sentence))
    .map((sentence) => keepValid(bracketedIn(sentence), count))
    .filter((ids) => ids.length >= 2);
  return sentences.at(-1) ?? [];
}

const SELECTION_CUE =
  /\b(?:useful|helpful|help|helps|relevant|select|selected|choose|chose|pick|picked|keep|answer|answers|contain|contains)\b/i;
const NEGATIVE = /\b(?:not|no|none|neither|nor|irrelevant|useless|unhelpful|without)\b|n't\b/i;

/**
 * A selection written as prose: "The passages that help are [2] and [5];
 * the rest do not", "I would select passages 1, 3 and 4". Identifiers in
 * clauses that select (a cue, no negation) are kept; a reply whose only
 * identifiers sit in negated clauses is none (no guess).
 */
function proseSelection(text: string, count: number): number[] | undefined {
  const clauses = bracketed(text).split(/(?<=[.!?;])\s+|\n|,\s*(?:but|while|whereas)\b/);
  const chosen: number[] = [];
  for (const clause of clauses) {
    const ids = bracketedIn(clause);
    if (ids.length === 0 || !SELECTION_CUE.test(clause) || NEGATIVE.test(clause)) continue;
    chosen.push(...ids);
  }
  return chosen.length > 0 ? keepValid(chosen, count) : undefined;
}

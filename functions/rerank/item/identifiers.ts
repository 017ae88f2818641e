/**
 * RankGPT's passage identifiers read back out of a model's reply. Passages
 * are shown as `[1]`…`[N]` in presentation order; a ranking or a set is
 * written `[3] > [1] > [2]`. Models add prose, markdown, lists like
 * `[2, 3, 15]` (ITEM's own examples), repeats and numbers that name no
 * passage, so the reader is deliberately forgiving in what it finds and
 * strict in what it keeps.
 */

/** `[3]`, `[2, 3, 15]`, `[[1],[2]]`'s inner groups: bracketed integers only. */
const BRACKETED = /\[\s*(\d+(?:\s*[,;]\s*\d+)*)\s*\]/g;
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
  const named = identifiersIn(reply, count);
  if (named.length > 0) return named.map((identifier) => identifier - 1);
  return EXPLICIT_NONE.test(reply.trim()) ? [] : undefined;
}

/**
 * A ranking reply as 0-based presentation positions, completed (see
 * `completeRanking`); `undefined` when it names no passage.
 */
export function readRanking(reply: string, count: number): number[] | undefined {
  return completeRanking(identifiersIn(reply, count), count);
}

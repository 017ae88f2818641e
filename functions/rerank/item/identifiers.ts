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
/** `3 > 1 > 2` with no brackets: only read when no bracketed identifier is found. */
const BARE_CHAIN = /\b\d+(?:\s*>\s*\d+)+\b/g;
/** An explicit empty selection: `None`, `[]`. */
const EXPLICIT_NONE = /^\W*none\b|\[\s*\]/i;

/**
 * The identifiers in 1..count a reply names, each once, in the order first
 * written. Out-of-range numbers (`[0]`, `[99]`) are ignored; a repeat keeps
 * its first place. Numbers in prose outside brackets are not identifiers.
 *
 * @example
 * identifiersIn("Ranking: [3] > [1] > [3] > [9]", 3); // [3, 1]
 */
export function identifiersIn(reply: string, count: number): number[] {
  let numbers = [...reply.matchAll(BRACKETED)].flatMap((match) =>
    (match[1] ?? "").split(/[,;]/).map((part) => Number(part.trim()))
  );
  if (numbers.length === 0) {
    numbers = [...reply.matchAll(BARE_CHAIN)].flatMap((match) =>
      match[0].split(">").map((part) => Number(part.trim()))
    );
  }
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

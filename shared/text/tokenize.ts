/** A token of the source text with its character offsets (end exclusive). */
export type Token = { text: string; start: number; end: number };

// Words (letters and digits, with inner apostrophes) and single punctuation
// marks: close enough to a subword tokenizer's count for window sizing, and
// it needs no vocabulary file, so it runs the same on Deno and workerd.
const TOKEN_PATTERN = /[\p{L}\p{N}]+(?:['’][\p{L}]+)*|[^\s\p{L}\p{N}]/gu;

/**
 * Splits text into tokens with offsets, so a window of tokens can be cut out
 * of the original text with its formatting intact.
 *
 * @example
 * tokenize("Hi, there").map((t) => t.text); // ["Hi", ",", "there"]
 */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  for (const match of text.matchAll(TOKEN_PATTERN)) {
    tokens.push({ text: match[0], start: match.index, end: match.index + match[0].length });
  }
  return tokens;
}

/** How many tokens `tokenize` finds; the unit of every `tokens_*` count offline. */
export function countTokens(text: string): number {
  let count = 0;
  for (const _ of text.matchAll(TOKEN_PATTERN)) count++;
  return count;
}

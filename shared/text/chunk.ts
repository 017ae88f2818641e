import { tokenize } from "./tokenize.ts";

export type ChunkOptions = {
  /** Window length in tokens. */
  size: number;
  /** Tokens shared by consecutive windows; must be smaller than `size`. */
  overlap: number;
};

export type TextChunk = { index: number; text: string; start: number; end: number };

/**
 * Cuts text into overlapping token windows. Each chunk is the exact slice of
 * the original text from its first token to its last, so offsets map back to
 * the source. Text shorter than one window gives one chunk; blank text none.
 *
 * @example
 * chunkText("a b c d e", { size: 3, overlap: 1 }).map((c) => c.text);
 * // ["a b c", "c d e"]
 */
export function chunkText(text: string, options: ChunkOptions): TextChunk[] {
  const { size, overlap } = options;
  if (!Number.isInteger(size) || size < 1) throw new RangeError("size must be a positive integer");
  if (!Number.isInteger(overlap) || overlap < 0 || overlap >= size) {
    throw new RangeError("overlap must be an integer in [0, size)");
  }
  const tokens = tokenize(text);
  const chunks: TextChunk[] = [];
  const step = size - overlap;
  for (let first = 0; first < tokens.length; first += step) {
    const last = Math.min(first + size, tokens.length) - 1;
    const start = tokens[first]!.start;
    const end = tokens[last]!.end;
    chunks.push({ index: chunks.length, text: text.slice(start, end), start, end });
    if (last === tokens.length - 1) break;
  }
  return chunks;
}

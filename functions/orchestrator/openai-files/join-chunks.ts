import { countTokens } from "../../../shared/text/tokenize.ts";

/** Characters a token may take, at most, when the tail that can overlap is cut. */
const CHARS_PER_TOKEN = 16;

/**
 * A document's text from its chunks in order: each chunk's opening that
 * repeats the end of the one before (the chunker's overlap, at most
 * `overlapTokens`) is left out, so the text reads once. Only exact repeats
 * are dropped; in text that repeats itself the longest repeat within the
 * overlap is taken, as the chunker carries the most whole pieces that fit.
 *
 * @example
 * joinChunks(["One. Two.", "Two. Three."], 50); // "One. Two. Three."
 */
export function joinChunks(chunks: readonly string[], overlapTokens: number): string {
  let text = "";
  for (const chunk of chunks) {
    const overlap = text ? overlapOf(text, chunk, overlapTokens) : 0;
    const rest = chunk.slice(overlap);
    text += text && overlap === 0 ? `\n\n${rest}` : rest;
  }
  return text;
}

/** The length of the longest start of `next` that ends `previous`, within `maxTokens`. */
function overlapOf(previous: string, next: string, maxTokens: number): number {
  const tail = previous.slice(-(maxTokens + 1) * CHARS_PER_TOKEN);
  // Every place the next chunk's first character recurs (the tail is a few hundred characters).
  const probe = next.slice(0, 1);
  if (!probe || maxTokens === 0) return 0;
  for (let at = tail.indexOf(probe); at !== -1; at = tail.indexOf(probe, at + 1)) {
    const repeated = tail.slice(at);
    if (next.startsWith(repeated) && countTokens(repeated) <= maxTokens) return repeated.length;
  }
  return 0;
}

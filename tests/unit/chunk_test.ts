import assert from "node:assert/strict";
import { chunkText } from "../../shared/text/chunk.ts";
import { countTokens, tokenize } from "../../shared/text/tokenize.ts";

Deno.test("tokenize() gives words and single punctuation marks with their offsets", () => {
  const text = "Hi, there! It's 2024.";
  const tokens = tokenize(text);
  assert.deepEqual(tokens.map((token) => token.text), [
    "Hi",
    ",",
    "there",
    "!",
    "It's",
    "2024",
    ".",
  ]);
  for (const token of tokens) assert.equal(text.slice(token.start, token.end), token.text);
  assert.equal(countTokens(text), tokens.length);
});

Deno.test("chunkText() cuts windows of `size` tokens that share `overlap` tokens", () => {
  const chunks = chunkText("a b c d e f g", { size: 3, overlap: 1 });
  assert.deepEqual(chunks.map((chunk) => chunk.text), ["a b c", "c d e", "e f g"]);
  assert.deepEqual(chunks.map((chunk) => chunk.index), [0, 1, 2]);
});

Deno.test("chunkText() stops once a window reaches the last token", () => {
  const chunks = chunkText("a b c d e f", { size: 4, overlap: 2 });
  assert.deepEqual(chunks.map((chunk) => chunk.text), ["a b c d", "c d e f"]);
});

Deno.test("chunkText() with no overlap tiles the text without gaps", () => {
  const chunks = chunkText("one two three four five", { size: 2, overlap: 0 });
  assert.deepEqual(chunks.map((chunk) => chunk.text), ["one two", "three four", "five"]);
});

Deno.test("chunkText() returns exact slices of the source text, formatting kept", () => {
  const text = "First line,\n  second   line.\n\n\tThird: line!  ";
  const chunks = chunkText(text, { size: 4, overlap: 1 });
  assert.ok(chunks.length > 1);
  for (const chunk of chunks) {
    assert.equal(text.slice(chunk.start, chunk.end), chunk.text);
    assert.equal(chunk.text, chunk.text.trim(), "a chunk starts and ends on a token");
  }
  assert.equal(chunks[0]!.start, 0);
  assert.equal(chunks.at(-1)!.end, text.trimEnd().length);
});

Deno.test("chunkText() gives one chunk for text shorter than a window", () => {
  const chunks = chunkText("  just a few words  ", { size: 50, overlap: 10 });
  assert.deepEqual(chunks, [{ index: 0, text: "just a few words", start: 2, end: 18 }]);
});

Deno.test("chunkText() gives no chunks for empty or blank text", () => {
  assert.deepEqual(chunkText("", { size: 10, overlap: 2 }), []);
  assert.deepEqual(chunkText(" \n\t  ", { size: 10, overlap: 2 }), []);
});

Deno.test("chunkText() rejects a size that is not a positive whole number", () => {
  for (const size of [0, -1, 1.5, Number.NaN]) {
    assert.throws(() => chunkText("a b c", { size, overlap: 0 }), RangeError, `size ${size}`);
  }
});

Deno.test("chunkText() rejects an overlap outside [0, size)", () => {
  for (const overlap of [-1, 3, 4, 0.5]) {
    assert.throws(() => chunkText("a b c", { size: 3, overlap }), RangeError, `overlap ${overlap}`);
  }
});

import assert from "node:assert/strict";
import type { Block } from "../documents/blocks.ts";
import { chunkBlocks } from "./chunk-blocks.ts";
import { countTokens, tokenize } from "./tokenize.ts";

const paragraph = (text: string, section: string[] = [], page?: number): Block =>
  page === undefined
    ? { kind: "paragraph", text, section }
    : { kind: "paragraph", text, section, page };
const heading = (text: string, section: string[], level: number): Block => ({
  kind: "heading",
  text,
  section,
  level,
});
const words = (count: number, word = "word") => Array.from({ length: count }, () => word).join(" ");

Deno.test("chunkBlocks() packs whole paragraphs under the budget, apart by a blank line", () => {
  const chunks = chunkBlocks([
    paragraph(words(10, "a")),
    paragraph(words(10, "b")),
    paragraph(words(10, "c")),
  ], {
    size: 25,
    overlap: 0,
  });
  assert.deepEqual(chunks.map((chunk) => chunk.text), [
    `${words(10, "a")}\n\n${words(10, "b")}`,
    words(10, "c"),
  ]);
});

Deno.test("chunkBlocks() never crosses a heading, and each chunk carries its heading path", () => {
  const blocks = [
    heading("RoBERTa", ["RoBERTa"], 1),
    heading("4.1 Training", ["RoBERTa", "4.1 Training"], 2),
    paragraph("We train longer.", ["RoBERTa", "4.1 Training"]),
    heading("4.2 Data", ["RoBERTa", "4.2 Data"], 2),
    paragraph("More data helps.", ["RoBERTa", "4.2 Data"]),
  ];
  const chunks = chunkBlocks(blocks, { size: 400, overlap: 50 });
  // The title heading alone makes no chunk: it is in both paths.
  assert.deepEqual(chunks, [
    { text: "4.1 Training\n\nWe train longer.", section: "RoBERTa > 4.1 Training" },
    { text: "4.2 Data\n\nMore data helps.", section: "RoBERTa > 4.2 Data" },
  ]);
});

Deno.test("chunkBlocks() splits a long paragraph at sentences, never inside a word, within the budget", () => {
  const sentences = Array.from(
    { length: 30 },
    (_, n) => `Sentence number ${n} says something\nwrapped.`,
  );
  const text = sentences.join(" ");
  const chunks = chunkBlocks([paragraph(text)], { size: 40, overlap: 0 });
  assert.ok(chunks.length > 1);
  for (const chunk of chunks) {
    assert.ok(countTokens(chunk.text) <= 40, chunk.text);
    assert.match(chunk.text, /^Sentence number \d+ .*wrapped\.$/s);
    assert.ok(text.includes(chunk.text), "a chunk is a slice of its paragraph");
  }
  // Together, without overlap, they hold every token once.
  assert.equal(
    chunks.reduce((sum, chunk) => sum + countTokens(chunk.text), 0),
    countTokens(text),
  );
});

Deno.test("chunkBlocks() shares up to `overlap` tokens of whole sentences between consecutive chunks", () => {
  const text = Array.from({ length: 12 }, (_, n) => `This is sentence ${n}.`).join(" ");
  const chunks = chunkBlocks([paragraph(text)], { size: 20, overlap: 5 });
  for (let at = 1; at < chunks.length; at++) {
    const previous = chunks[at - 1]!.text;
    const lastSentence = previous.slice(previous.lastIndexOf("This is"));
    assert.ok(chunks[at]!.text.startsWith(lastSentence), `${at}: ${chunks[at]!.text}`);
  }
  assert.ok(chunks.every((chunk) => countTokens(chunk.text) <= 20));
});

Deno.test("chunkBlocks() splits a big table at rows, never inside one", () => {
  const rows = [
    "| model | score |",
    "|---|---|",
    ...Array.from({ length: 20 }, (_, n) => `| m${n} | ${n}.5 |`),
  ];
  const table: Block = { kind: "table", text: rows.join("\n"), section: ["Results"] };
  const chunks = chunkBlocks([table], { size: 30, overlap: 0 });
  assert.ok(chunks.length > 1);
  for (const chunk of chunks) {
    for (const line of chunk.text.split("\n")) assert.ok(rows.includes(line), line);
    assert.equal(chunk.section, "Results");
  }
});

Deno.test("chunkBlocks() splits a big list at items", () => {
  const items = Array.from({ length: 10 }, (_, n) => `- item ${n} has\n  two lines`);
  const chunks = chunkBlocks([{ kind: "list", text: items.join("\n"), section: [] }], {
    size: 20,
    overlap: 0,
  });
  assert.ok(chunks.length > 1);
  for (const chunk of chunks) assert.match(chunk.text, /^(- item \d has\n {2}two lines\n?)+$/);
});

Deno.test("chunkBlocks() cuts a sentence longer than the budget between words", () => {
  const text = "supercalifragilistic ".repeat(25).trim();
  const chunks = chunkBlocks([paragraph(text)], { size: 10, overlap: 0 });
  assert.equal(chunks.length, 3);
  for (const chunk of chunks) {
    assert.ok(tokenize(chunk.text).every((token) => token.text === "supercalifragilistic"));
  }
});

Deno.test("chunkBlocks() gives a chunk the page it starts on, and page_end when it spans pages", () => {
  const chunks = chunkBlocks([
    paragraph("On page two.", [], 2),
    paragraph("Still page two.", [], 2),
    paragraph("Now page three.", [], 3),
    paragraph(words(15), [], 4),
  ], { size: 20, overlap: 0 });
  assert.deepEqual(chunks.map(({ page, page_end }) => ({ page, page_end })), [
    { page: 2, page_end: 3 },
    { page: 4, page_end: undefined },
  ]);
  assert.equal("page_end" in chunks[1]!, false);
});

Deno.test("chunkBlocks() gives nothing for no blocks or blank ones, and rejects a bad budget", () => {
  assert.deepEqual(chunkBlocks([], { size: 10, overlap: 0 }), []);
  assert.deepEqual(chunkBlocks([paragraph("  ")], { size: 10, overlap: 0 }), []);
  assert.throws(() => chunkBlocks([], { size: 0, overlap: 0 }), RangeError);
  assert.throws(() => chunkBlocks([], { size: 5, overlap: 5 }), RangeError);
});

Deno.test("chunkBlocks() keeps a paragraph whole for the next chunk once the chunk is full enough, and fills a near-empty one with its sentences", () => {
  const sentence = (n: number) => `Sentence ${n} is here.`; // 5 tokens
  const long = Array.from({ length: 6 }, (_, n) => sentence(n)).join(" "); // 30 tokens
  // 18 of 20 tokens used: the 30-token paragraph starts the next chunk.
  const full = chunkBlocks([paragraph(words(18)), paragraph(long)], { size: 20, overlap: 0 });
  assert.equal(full[0]!.text, words(18));
  assert.ok(full[1]!.text.startsWith(sentence(0)));
  // 5 of 20 used: its first three sentences fill the chunk.
  const sparse = chunkBlocks([paragraph(words(5)), paragraph(long)], { size: 20, overlap: 0 });
  assert.equal(sparse[0]!.text, `${words(5)}\n\n${sentence(0)} ${sentence(1)} ${sentence(2)}`);
  assert.equal(sparse[1]!.text, `${sentence(3)} ${sentence(4)} ${sentence(5)}`);
});

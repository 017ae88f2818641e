/**
 * The README and every page in docs/ read raw in a terminal: no line outside
 * a code block is wider than 120 characters, unless it is one long URL or a
 * table row, neither of which can be broken.
 */
import assert from "node:assert/strict";

const MAX = 120;

/** `[line number, text]` of each line outside fenced code blocks that is over `MAX`. */
export function wideLines(markdown: string): [number, string][] {
  const wide: [number, string][] = [];
  let inCode = false;
  markdown.split("\n").forEach((line, index) => {
    if (/^\s*(```|~~~)/.test(line)) {
      inCode = !inCode;
      return;
    }
    const withoutUrls = line.replace(/<?https?:\/\/\S+/g, "URL");
    const tableRow = /^\s*\|.*\|\s*$/.test(line);
    if (!inCode && !tableRow && withoutUrls.length > MAX) wide.push([index + 1, line]);
  });
  return wide;
}

Deno.test("wideLines() finds a wide prose line and ignores code blocks, URLs and table rows", () => {
  const wide = "x".repeat(MAX + 1);
  const url = `see https://example.com/${"a".repeat(200)}`;
  const row = `| ${"a".repeat(MAX)} | b |`;
  assert.deepEqual(wideLines(["```", wide, "```", url, row, wide].join("\n")), [[6, wide]]);
});

const DOCS = new URL("../../docs/", import.meta.url);
const pages = ["README.md", "prompts/README.md"];
for await (const entry of Deno.readDir(DOCS)) {
  if (entry.isFile && entry.name.endsWith(".md")) pages.push(`docs/${entry.name}`);
}

for (const file of pages.sort()) {
  Deno.test(`${file} has no line over ${MAX} characters outside code blocks`, async () => {
    const text = await Deno.readTextFile(new URL(`../../${file}`, import.meta.url));
    assert.deepEqual(wideLines(text), []);
  });
}

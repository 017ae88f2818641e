import assert from "node:assert/strict";
import { parsePlainText } from "./text.ts";

Deno.test("parsePlainText() gives paragraphs split at blank lines, line breaks inside kept, no title", () => {
  const parsed = parsePlainText("One line\nand its wrap.\n\n  \r\nSecond.\n\n\n\nThird.\n");
  assert.equal(parsed.title, undefined);
  assert.deepEqual(parsed.blocks.map((block) => [block.kind, block.text, block.section]), [
    ["paragraph", "One line\nand its wrap.", []],
    ["paragraph", "Second.", []],
    ["paragraph", "Third.", []],
  ]);
});

Deno.test("parsePlainText() of blank text has no blocks", () => {
  assert.deepEqual(parsePlainText(" \n\t\n").blocks, []);
});

import assert from "node:assert/strict";
import { parseMarkdown } from "./markdown.ts";

const PAPER = `# RoBERTa

Intro paragraph
over two lines.

## 4 Experiments

### 4.1 Training

We train longer.

- first item
  continues here
- second item

| model | score |
|---|---|
| BERT | 80.5 |
| RoBERTa | 88.5 |

\`\`\`ts
const a = 1;

const b = 2;
\`\`\`

## 5 Related work
Setext heading
--------------
Under it.
`;

Deno.test("parseMarkdown() keeps headings with their level and heading path, and takes the first # as title", () => {
  const { title, blocks } = parseMarkdown(PAPER);
  assert.equal(title, "RoBERTa");
  const headings = blocks.filter((block) => block.kind === "heading");
  assert.deepEqual(headings.map((h) => [h.text, h.level, h.section]), [
    ["RoBERTa", 1, ["RoBERTa"]],
    ["4 Experiments", 2, ["RoBERTa", "4 Experiments"]],
    ["4.1 Training", 3, ["RoBERTa", "4 Experiments", "4.1 Training"]],
    ["5 Related work", 2, ["RoBERTa", "5 Related work"]],
    ["Setext heading", 2, ["RoBERTa", "Setext heading"]],
  ]);
  const under = blocks.find((block) => block.text === "Under it.");
  assert.deepEqual(under?.section, ["RoBERTa", "Setext heading"]);
});

Deno.test("parseMarkdown() makes one block of a list, a table and a fenced code block (blank lines inside kept)", () => {
  const { blocks } = parseMarkdown(PAPER);
  const kinds = blocks.map((block) => block.kind);
  assert.deepEqual(kinds, [
    "heading",
    "paragraph",
    "heading",
    "heading",
    "paragraph",
    "list",
    "table",
    "code",
    "heading",
    "heading",
    "paragraph",
  ]);
  assert.equal(blocks[1]!.text, "Intro paragraph\nover two lines.");
  assert.equal(blocks[5]!.text, "- first item\n  continues here\n- second item");
  assert.equal(blocks[6]!.text.split("\n").length, 4);
  assert.equal(blocks[7]!.text, "const a = 1;\n\nconst b = 2;");
  assert.deepEqual(blocks[7]!.section, ["RoBERTa", "4 Experiments", "4.1 Training"]);
});

Deno.test("parseMarkdown() takes the front matter's title, and skips the front matter and thematic breaks", () => {
  const parsed = parseMarkdown("---\ntitle: 'Notes'\ntags: a\n---\nText.\n\n***\n\nMore.");
  assert.equal(parsed.title, "Notes");
  assert.deepEqual(parsed.blocks.map((block) => block.text), ["Text.", "More."]);
});

Deno.test("parseMarkdown() gives no title when there is no # heading, and none for blank text", () => {
  assert.equal(parseMarkdown("## Only a subheading\ntext").title, undefined);
  assert.deepEqual(parseMarkdown(" \n\n"), { blocks: [] });
});

Deno.test("parseMarkdown() reads CRLF line ends and an unclosed fence as code to the end", () => {
  const { blocks } = parseMarkdown("# T\r\n\r\n```\r\nx = 1\r\ny = 2\r\n");
  assert.deepEqual(blocks.map((block) => [block.kind, block.text]), [
    ["heading", "T"],
    ["code", "x = 1\ny = 2"],
  ]);
});

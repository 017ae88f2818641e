import assert from "node:assert/strict";
import { makeDocx, paragraph } from "../helpers/docx.ts";
import { parseDocx } from "../../functions/embed/parsers/docx.ts";

const LIMITS = {
  maxBytes: 10_000_000,
  maxPdfPages: 100,
  maxExpandedBytes: 50 * 1024 * 1024,
  parseTimeoutMs: 60_000,
};
const DEPTH = 100_000;
/** Far above the ~0.5 s these take, far below the 21 s nested runs took walked quadratically. */
const DEADLINE_MS = 60_000;

const run = (text: string) => `<w:r><w:t>${text}</w:t></w:r>`;
const cell = (text: string) => `<w:tc>${paragraph(text)}</w:tc>`;

async function parseWithin(body: string) {
  const docx = makeDocx(body);
  const started = performance.now();
  const parsed = await parseDocx(docx, "nested.docx", LIMITS);
  const took = performance.now() - started;
  assert.ok(took < DEADLINE_MS, `${docx.byteLength} bytes took ${took.toFixed(0)} ms`);
  return parsed;
}

Deno.test("parseDocx() reads headings, list items, line breaks and a table", async () => {
  const item = (text: string) =>
    `<w:p><w:pPr><w:numPr><w:numId w:val="1"/></w:numPr></w:pPr>${run(text)}</w:p>`;
  const parsed = await parseDocx(
    makeDocx(
      paragraph("Tide Tables", "Title") + paragraph("Method", "Heading1") +
        `<w:p>${run("one  line")}<w:r><w:br/><w:t>next</w:t></w:r></w:p>` + item("gauge") +
        `<w:tbl><w:tr>${cell("day")}${cell("")}${cell("knots")}</w:tr>` +
        `<w:tr>${cell("")}${cell("")}</w:tr><w:tr>${cell("1")}${cell("")}${
          cell("3.8")
        }</w:tr></w:tbl>`,
    ),
    "tides.docx",
    LIMITS,
  );
  assert.equal(parsed.title, "Tide Tables");
  assert.deepEqual(parsed.blocks.map(({ kind, text, section }) => [kind, text, section]), [
    ["heading", "Tide Tables", []],
    ["heading", "Method", ["Method"]],
    ["paragraph", "one line\nnext", ["Method"]],
    ["list", "gauge", ["Method"]],
    ["table", "day |  | knots\n1 |  | 3.8", ["Method"]],
  ]);
});

Deno.test("parseDocx() reads 100,000 nested runs, and closing tags that match nothing, in one pass", async () => {
  for (const close of ["</w:r>", "</w:x>"]) {
    const parsed = await parseWithin(
      `<w:p>${"<w:r>".repeat(DEPTH)}<w:t>deep</w:t>${close.repeat(DEPTH)}</w:p>`,
    );
    assert.deepEqual(parsed.blocks.map((block) => block.text), ["deep"], close);
  }
});

Deno.test("parseDocx() reads 100,000 nested paragraphs and table rows with each text once", async () => {
  // Word nests a paragraph in another for a text box; a row nests in a row through a table.
  const paragraphs = await parseWithin(
    `${"<w:p>".repeat(DEPTH)}${`${run("x")}</w:p>`.repeat(DEPTH)}${paragraph("after")}`,
  );
  assert.equal(paragraphs.blocks.length, DEPTH + 1);
  assert.ok(paragraphs.blocks.slice(0, DEPTH).every((block) => block.text === "x"));
  const rows = await parseWithin(
    `<w:tbl>${"<w:tr><w:tc><w:tbl>".repeat(DEPTH)}${
      `${paragraph("x")}</w:tbl></w:tc></w:tr>`.repeat(DEPTH)
    }</w:tbl>`,
  );
  assert.equal(rows.blocks.length, 1);
  assert.equal(rows.blocks[0]?.text, Array(DEPTH).fill("x").join("\n"));
});

Deno.test("parseDocx() keeps an outer paragraph's text around a text box's paragraph", async () => {
  const textBox = `<w:r><w:txbxContent>${paragraph("in the box")}</w:txbxContent></w:r>`;
  const parsed = await parseDocx(
    makeDocx(`<w:p>${run("before")}${textBox}${run(" after")}</w:p>`),
    "box.docx",
    LIMITS,
  );
  assert.deepEqual(parsed.blocks.map((block) => block.text), ["in the box", "before after"]);
});

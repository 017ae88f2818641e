import assert from "node:assert/strict";
import { DocumentRefusedError } from "../../../shared/documents/refusal.ts";
import { parseFile } from "./index.ts";

const LIMITS = {
  maxBytes: 10_000_000,
  maxPdfPages: 100,
  maxExpandedBytes: 10_000_000,
  parseTimeoutMs: 30_000,
};
const FIXTURES = new URL("../../../tests/fixtures/documents/", import.meta.url);

Deno.test("parseFile() refuses a broken PDF or DOCX as unreadable, naming the file", async () => {
  const paper = await Deno.readFile(new URL("paper.pdf", FIXTURES));
  const cases: [string, Uint8Array, RegExp][] = [
    ["garbage.pdf", new TextEncoder().encode("%PDF-1.4\nnot a PDF at all"), /not a readable PDF/],
    ["half.pdf", paper.slice(0, paper.length / 2), /is truncated: .*no %%EOF/],
    [
      "odd.docx",
      new Uint8Array([0x50, 0x4b, 3, 4, ...new TextEncoder().encode("word/document.xml?")]),
      /zip without word\/document\.xml|is truncated|is damaged/,
    ],
  ];
  for (const [name, bytes, why] of cases) {
    await assert.rejects(parseFile(bytes, name, LIMITS), (error: unknown) => {
      assert.ok(error instanceof DocumentRefusedError, String(error));
      assert.equal(error.status, 400);
      assert.match(error.message, new RegExp(`^${name.replace(".", "\\.")}: `));
      assert.match(error.message, why);
      return true;
    });
  }
});

Deno.test("parseFile() reads a PDF page by page: every block has its page, in order", async () => {
  const parsed = await parseFile(
    await Deno.readFile(new URL("paper.pdf", FIXTURES)),
    "paper.pdf",
    LIMITS,
  );
  assert.equal(parsed.kind, "pdf");
  const pages = parsed.blocks.map((block) => block.page);
  assert.ok(pages.every((page) => page === 1 || page === 2), String(pages));
  assert.deepEqual(pages, [...pages].sort());
  const headings = parsed.blocks.filter((block) => block.kind === "heading").map((b) => b.text);
  assert.ok(headings.includes("3.1 Correcting the offset"), headings.join(" | "));
  const table = parsed.blocks.find((block) => block.text.includes("Days of readings"));
  assert.match(table?.text ?? "", /30 3\.8 12/);
});

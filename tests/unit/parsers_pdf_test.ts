import assert from "node:assert/strict";
import { DocumentRefusedError } from "../../shared/documents/refusal.ts";
import { columnLines, loopingPagesPdf, makePdf, type PdfLine } from "../helpers/pdf.ts";
import { parseFile } from "../../functions/embed/parsers/index.ts";
import { parsePdf } from "../../functions/embed/parsers/pdf.ts";

const LIMITS = {
  maxBytes: 10_000_000,
  maxPdfPages: 100,
  maxExpandedBytes: 10_000_000,
  parseTimeoutMs: 60_000,
};

const WORDS = ("the tide rose over the harbour wall while ferries waited for pilot boats " +
  "and the keeper logged each reading against the gauge by the slipway").split(" ");

/**
 * A two-column preprint page: a diagonal DRAFT watermark, a running head on
 * every page, and on page 1 a large title with authors and an abstract.
 */
function preprintPage(page: number, heading: string): PdfLine[] {
  return [
    { text: "DRAFT", x: 150, y: 250, size: 90, angle: 45 },
    { text: "Preprint under review", x: 230, y: 770, size: 14 },
    ...(page === 1
      ? [
        { text: "Slack Water from Cheap Sensors", x: 110, y: 735, size: 22 },
        { text: "Ada Quay and Ben Pier", x: 240, y: 712, size: 12 },
        {
          text: "Abstract: we predict slack water in small harbours from one cheap gauge.",
          x: 72,
          y: 695,
          size: 10,
        },
      ]
      : []),
    { text: heading, x: 72, y: 670, size: 13 },
    ...columnLines(WORDS, { x: 72, top: 650, count: 30 }),
    ...columnLines(WORDS.toReversed(), { x: 320, top: 650, count: 30 }),
  ];
}

const preprint = (options: { title?: string } = {}) =>
  makePdf([preprintPage(1, "1 Introduction"), preprintPage(2, "2 Method")], options);

Deno.test("a diagonal watermark and a running head on every page are not headings", async () => {
  const parsed = await parsePdf(preprint(), "preprint.pdf", LIMITS);
  const headings = parsed.blocks.filter((block) => block.kind === "heading").map((b) => b.text);
  assert.deepEqual(headings, ["Slack Water from Cheap Sensors", "1 Introduction", "2 Method"]);
  const sections = new Set(parsed.blocks.map((block) => block.section.join(" > ")));
  assert.deepEqual([...sections].filter(Boolean), ["1 Introduction", "2 Method"]);
  // Their words are kept as text all the same, as pdftotext keeps them.
  const text = parsed.blocks.map((block) => block.text).join("\n");
  assert.match(text, /DRAFT/);
  assert.match(text, /Preprint under review/);
});

Deno.test("the watermark does not break the two columns: the left one is read first", async () => {
  const parsed = await parsePdf(preprint(), "preprint.pdf", LIMITS);
  const page1 = parsed.blocks.filter((block) => block.page === 1 && block.kind === "paragraph");
  const left = page1.findIndex((block) => block.text.startsWith("the tide rose"));
  const right = page1.findIndex((block) => block.text.startsWith("slipway the by"));
  assert.ok(left !== -1 && right > left, page1.map((block) => block.text.slice(0, 20)).join(" | "));
});

Deno.test("page 1's largest heading is the title when the metadata has none, the metadata's otherwise", async () => {
  assert.equal(
    (await parsePdf(preprint(), "p.pdf", LIMITS)).title,
    "Slack Water from Cheap Sensors",
  );
  const titled = await parsePdf(preprint({ title: "From the metadata" }), "p.pdf", LIMITS);
  assert.equal(titled.title, "From the metadata");
  // The authors under the title are front matter, not a section.
  assert.ok(titled.blocks.every((block) => !block.section.includes("Ada Quay and Ben Pier")));
});

function refusedAs(name: string, why: RegExp) {
  return (error: unknown) => {
    assert.ok(error instanceof DocumentRefusedError, String(error));
    assert.equal(error.status, 400);
    assert.match(error.message, new RegExp(`^${name.replace(".", "\\.")}: `));
    assert.match(error.message, why);
    return true;
  };
}

Deno.test("a PDF whose page tree points at itself is refused as damaged with pdf.js's reason", async () => {
  await assert.rejects(
    parseFile(loopingPagesPdf(), "loop.pdf", LIMITS),
    refusedAs("loop.pdf", /is damaged: Pages tree contains circular reference/),
  );
});

Deno.test("a PDF cut off before its end is refused as truncated, a broken one as damaged", async () => {
  const whole = preprint();
  await assert.rejects(
    parsePdf(whole.slice(0, Math.floor(whole.length * 0.6)), "cut.pdf", LIMITS),
    refusedAs("cut.pdf", /is truncated: .*send the whole file again/),
  );
  // Its end is there; the object its trailer names as the root is not.
  const text = new TextDecoder().decode(whole).replace("/Root 1 0 R", "/Root 9 0 R");
  await assert.rejects(
    parsePdf(new TextEncoder().encode(text), "broken.pdf", LIMITS),
    refusedAs("broken.pdf", /is damaged: Invalid Root reference/),
  );
});

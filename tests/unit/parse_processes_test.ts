import assert from "node:assert/strict";
import { DocumentRefusedError } from "../../shared/documents/refusal.ts";
import { cmapBombPdf, repeatedStreamPdf } from "../helpers/hostile_pdf.ts";
import { columnLines, makePdf } from "../helpers/pdf.ts";
import { parseFile } from "../../functions/embed/parsers/index.ts";

const LIMITS = {
  maxBytes: 10_000_000,
  maxPdfPages: 100,
  maxExpandedBytes: 10_000_000,
  parseTimeoutMs: 120_000,
};
const FIXTURES = new URL("../fixtures/documents/", import.meta.url);

Deno.test("parseFile() on Deno stops a parse past FILE_PARSE_TIMEOUT_MS with a 413 naming the file, and parses the next file", async () => {
  const paper = await Deno.readFile(new URL("paper.pdf", FIXTURES));
  await assert.rejects(
    parseFile(paper, "slow.pdf", { ...LIMITS, parseTimeoutMs: 1 }),
    (error: unknown) => {
      assert.ok(error instanceof DocumentRefusedError, String(error));
      assert.equal(error.status, 413);
      assert.match(error.message, /^slow\.pdf: took over 1 ms to read \(FILE_PARSE_TIMEOUT_MS\)/);
      return true;
    },
  );
  // The stopped child was thrown away; a new one reads the same file.
  const parsed = await parseFile(paper, "paper.pdf", LIMITS);
  assert.equal(parsed.kind, "pdf");
});

Deno.test("parseFile() refuses a sub-1 KB PDF whose font maps 100M codes, five times in a row, with a 413 naming the memory ceiling, and this process goes on", async () => {
  const bomb = cmapBombPdf();
  assert.ok(bomb.byteLength < 1024, `${bomb.byteLength} bytes`);
  for (let attempt = 1; attempt <= 5; attempt++) {
    await assert.rejects(
      parseFile(bomb, "font.pdf", { ...LIMITS, parseMemoryMb: 256 }),
      (error: unknown) => {
        assert.ok(error instanceof DocumentRefusedError, String(error));
        assert.equal(error.status, 413);
        assert.equal(
          error.message,
          "font.pdf: needs more than 256 MB to read (FILE_PARSE_MEMORY_MB); " +
            "refused as too large or too complex",
        );
        return true;
      },
    );
  }
  const paper = await Deno.readFile(new URL("paper.pdf", FIXTURES));
  assert.equal((await parseFile(paper, "paper.pdf", LIMITS)).kind, "pdf");
});

Deno.test("parseFile() stops a PDF that lists one stream 2,048 times at the memory ceiling: the decompression bound sees that stream once", async () => {
  const pdf = await repeatedStreamPdf(2048, 1024 * 1024);
  await assert.rejects(
    parseFile(pdf, "repeats.pdf", { ...LIMITS, parseMemoryMb: 256 }),
    (error: unknown) => {
      assert.ok(error instanceof DocumentRefusedError, String(error));
      assert.equal(error.status, 413);
      assert.match(error.message, /^repeats\.pdf: needs more than 256 MB to read/);
      return true;
    },
  );
});

Deno.test("parseFile() ends the parse of a caller that went away, throws its reason, and frees its slot", async () => {
  // A thousand pages: seconds of pdf.js, so the aborts below land while they parse.
  const words = "tide harbour current shoal beacon mooring".split(" ");
  const pages = Array.from(
    { length: 1000 },
    () => columnLines(words, { x: 72, top: 720, count: 50 }),
  );
  const book = makePdf(pages);
  const limits = { ...LIMITS, maxBytes: 100_000_000, maxPdfPages: 100_000 };
  // Three callers for two slots: the third waits its turn, and leaves the queue when it goes.
  const callers = [1, 2, 3].map((caller) => {
    const controller = new AbortController();
    const reason = new Error(`caller ${caller} went away`);
    const parsing = parseFile(book, `book-${caller}.pdf`, limits, controller.signal);
    setTimeout(() => controller.abort(reason), 200);
    return { parsing, reason };
  });
  const outcomes = await Promise.allSettled(callers.map(({ parsing }) => parsing));
  assert.deepEqual(
    outcomes,
    callers.map(({ reason }) => ({ status: "rejected", reason })),
  );
  const paper = await Deno.readFile(new URL("paper.pdf", FIXTURES));
  assert.equal((await parseFile(paper, "paper.pdf", LIMITS)).kind, "pdf");
});

Deno.test("parseFile() on Deno parses deeply nested HTML off this thread: timers here keep firing", async () => {
  const depth = 60_000;
  const html = `<html><body>${"<div>".repeat(depth)}deep text${
    "</div>".repeat(depth)
  }</body></html>`;
  const gaps: number[] = [];
  let last = performance.now();
  const ticker = setInterval(() => {
    const now = performance.now();
    gaps.push(now - last);
    last = now;
  }, 5);
  const started = performance.now();
  try {
    const parsed = await parseFile(new TextEncoder().encode(html), "deep.html", LIMITS);
    assert.deepEqual(parsed.blocks.map((block) => block.text), ["deep text"]);
  } finally {
    clearInterval(ticker);
  }
  const took = performance.now() - started;
  // Measured in this one run: no wait between two ticks came near the parse's own time.
  const longest = Math.max(...gaps);
  assert.ok(
    longest < took / 3,
    `a ${longest.toFixed(0)} ms stall in a ${took.toFixed(0)} ms parse`,
  );
});

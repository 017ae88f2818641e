import assert from "node:assert/strict";
import { DocumentRefusedError } from "../../../shared/documents/refusal.ts";
import { parseFile } from "./index.ts";

const LIMITS = {
  maxBytes: 10_000_000,
  maxPdfPages: 100,
  maxExpandedBytes: 10_000_000,
  parseTimeoutMs: 120_000,
};
const FIXTURES = new URL("../../../tests/fixtures/documents/", import.meta.url);

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
  // The stopped worker was thrown away; a new one reads the same file.
  const parsed = await parseFile(paper, "paper.pdf", LIMITS);
  assert.equal(parsed.kind, "pdf");
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

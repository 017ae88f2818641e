import assert from "node:assert/strict";
import { linesOf, readingOrder, segmentsOf, type TextRun } from "./pdf-layout.ts";
import { joinLines } from "./pdf.ts";

/** Words of one line laid out from `x` on baseline `y`, 5 points per character. */
function line(text: string, x: number, y: number, size = 10): TextRun[] {
  const runs: TextRun[] = [];
  let at = x;
  for (const word of text.split(" ")) {
    runs.push({ text: word, x: at, y, width: word.length * 5, size });
    at += word.length * 5 + size * 0.3;
  }
  return runs;
}

Deno.test("readingOrder() reads a two-column page left column first, a full-width heading first of all", () => {
  const runs: TextRun[] = [
    ...line("The Gazette masthead across the whole page width here", 50, 760, 20),
  ];
  for (let row = 0; row < 8; row++) {
    // Content order interleaves the columns, as some producers write them.
    runs.push(...line(`left ${row} words`, 50, 700 - row * 12));
    runs.push(...line(`right ${row} words`, 320, 700 - row * 12));
  }
  const ordered = linesOf(readingOrder(segmentsOf(runs), 612)).map((segment) => segment.text);
  assert.equal(ordered[0], "The Gazette masthead across the whole page width here");
  assert.deepEqual(ordered.slice(1, 9), [...Array(8)].map((_, row) => `left ${row} words`));
  assert.deepEqual(ordered.slice(9), [...Array(8)].map((_, row) => `right ${row} words`));
});

Deno.test("readingOrder() keeps a one-column page top to bottom", () => {
  const runs: TextRun[] = [];
  for (let row = 11; row >= 0; row--) {
    runs.push(
      ...line(
        `line ${row} runs across the middle of the page from margin to margin`,
        72,
        100 + row * 12,
      ),
    );
  }
  const ordered = linesOf(readingOrder(segmentsOf(runs), 612)).map((segment) => segment.text);
  assert.equal(ordered.length, 12);
  assert.ok(ordered[0]!.startsWith("line 11 "));
  assert.ok(ordered[11]!.startsWith("line 0 "));
});

Deno.test("joinLines() joins a word hyphenated at a line's end, and keeps other lines apart", () => {
  assert.equal(
    joinLines(["Members are re-", "minded that the well-", "Known bays", "end -", "here"]),
    "Members are reminded that the well-\nKnown bays\nend -\nhere",
  );
});

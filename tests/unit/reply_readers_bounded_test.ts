import assert from "node:assert/strict";
import { READERS } from "./reply-corpus/score.ts";

/*
 * A model's reply is untrusted input: every reader takes time linear in
 * its length, whatever the reply holds. Replies built to make a careless
 * regex backtrack or a scanner restart at every brace go through every
 * reader within a bound far above what linear reading needs.
 */

const SIZE = 20_000;
const HOSTILE: Record<string, string> = {
  braces: "{".repeat(SIZE),
  "single quotes": "{'a': '".repeat(SIZE / 8),
  "open tags": "<think>".repeat(SIZE / 7),
  "close tags": "</score>".repeat(SIZE / 8),
  "tags never closed": "<score>1".repeat(SIZE / 8),
  "boxes never closed": "\\boxed{".repeat(SIZE / 7),
  "labels without values": "Puntuación de relevancia ".repeat(SIZE / 25) + ":",
  "colons": "a:".repeat(SIZE / 2),
  "documents": "Doc 1 (".repeat(SIZE / 7),
  "revisions": "lower it down to ".repeat(SIZE / 17),
  "conditionals": "if it would be, ".repeat(SIZE / 16),
  "numbers": "1,2".repeat(SIZE / 3),
  "brackets": "[[".repeat(SIZE / 2),
  "spaces then colon": " ".repeat(SIZE) + ":",
};

Deno.test("every reply reader reads hostile replies in time linear in their length", () => {
  for (const [name, reply] of Object.entries(HOSTILE)) {
    for (const [reader, read] of Object.entries(READERS)) {
      const started = performance.now();
      read(reply);
      const took = performance.now() - started;
      assert.ok(took < 1_500, `${reader} took ${took.toFixed(0)} ms on ${name}`);
    }
  }
});

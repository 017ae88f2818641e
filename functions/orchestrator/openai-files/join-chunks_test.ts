import assert from "node:assert/strict";
import { joinChunks } from "./join-chunks.ts";

Deno.test("joinChunks() reads each overlap once, and repeated text only within the overlap", () => {
  assert.equal(
    joinChunks(["One two. Three four.", "Three four. Five six."], 50),
    "One two. Three four. Five six.",
  );
  assert.equal(joinChunks(["Alpha.", "Beta."], 50), "Alpha.\n\nBeta.");
  // Text that repeats itself: only as much as the chunker could have carried over (12 tokens,
  // at most three of these sentences) is dropped, not all ten repeats that match.
  const sentence = "The same sentence again. ";
  const previous = sentence.repeat(20).trim();
  const next = sentence.repeat(10).trim() + " The end.";
  const count = joinChunks([previous, next], 12).split("The same sentence again.").length - 1;
  assert.ok(count >= 27 && count <= 29, String(count));
});

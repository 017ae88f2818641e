import assert from "node:assert/strict";
import { splitSentences } from "./sentences.ts";

Deno.test("splitSentences() keeps decimals, abbreviations and initials inside their sentence", () => {
  assert.deepEqual(
    splitSentences(
      "BM25 uses k1 = 1.2 and b = 0.75 [3]. Robertson et al. showed it in 1994. " +
        "E.g. dense retrieval differs. J. Smith agrees! Does it? Yes.",
    ),
    [
      "BM25 uses k1 = 1.2 and b = 0.75 [3].",
      "Robertson et al. showed it in 1994.",
      "E.g. dense retrieval differs.",
      "J. Smith agrees!",
      "Does it?",
      "Yes.",
    ],
  );
});

Deno.test("splitSentences() treats wrapped lines as one sentence and blank lines as boundaries", () => {
  assert.deepEqual(
    splitSentences('A heading\n\nThe first line\nwraps here. Then ("quoted") ends.\n\n  \n...'),
    ["A heading", "The first line wraps here.", 'Then ("quoted") ends.'],
  );
});

Deno.test("splitSentences() does not split before a lowercase word", () => {
  assert.deepEqual(splitSentences("It costs approx. ten. see below."), [
    "It costs approx. ten. see below.",
  ]);
});

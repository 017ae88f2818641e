import assert from "node:assert/strict";
import { analyze, stem, STOP_WORDS, words } from "../../shared/text/analyze.ts";

Deno.test("analyze() drops stop words and stems what is left", () => {
  assert.deepEqual(analyze("The models were trained"), ["model", "train"]);
});

Deno.test("analyze() lowercases and splits on anything that is not a letter or digit", () => {
  assert.deepEqual(words("Rank-Fusion, BM25/k1!"), ["rank", "fusion", "bm25", "k1"]);
  assert.deepEqual(analyze("RANK fusion"), analyze("rank Fusion"));
});

Deno.test("analyze() of stop words only is empty", () => {
  assert.deepEqual(analyze("What is it and how would you do that?"), []);
  for (const word of ["the", "and", "is", "of", "what"]) assert.ok(STOP_WORDS.has(word), word);
});

Deno.test("stem() conflates inflections of one word", () => {
  assert.equal(stem("models"), stem("model"));
  assert.equal(stem("trained"), stem("train"));
  assert.equal(stem("ranking"), stem("ranked"));
  assert.equal(stem("queries"), stem("query"));
});

Deno.test("stem() leaves words with digits alone", () => {
  assert.equal(stem("gpt4s"), "gpt4s");
  assert.equal(stem("130b"), "130b");
});

import assert from "node:assert/strict";
import { OkapiBm25 } from "./testing.ts";

const byWhitespace = (text: string) => text.split(/\s+/).filter(Boolean);

/** d1 = 3 terms, d2 = 2, d3 = 4: N = 3, average length 3. */
function tinyIndex(options: { k1?: number; b?: number } = {}) {
  const index = new OkapiBm25({ ...options, analyzer: byWhitespace });
  index.add("d1", "apple banana apple");
  index.add("d2", "banana cherry");
  index.add("d3", "cherry durian elderberry fig");
  return index;
}

function near(actual: number, expected: number, tolerance: number, label = "") {
  assert.ok(
    Math.abs(actual - expected) <= tolerance,
    `${label} expected ${expected}, got ${actual}`,
  );
}

Deno.test("OkapiBm25.search() gives the hand-computed Okapi score (k1=1.2, b=0.75)", () => {
  const index = tinyIndex();
  // apple: df 1, idf = ln(1 + 2.5/1.5); cherry: df 2, idf = ln(1 + 1.5/2.5).
  const idfApple = Math.log(1 + 2.5 / 1.5);
  const idfCherry = Math.log(1 + 1.5 / 2.5);
  // d1: tf 2, |d| 3 = avg -> K = 1.2; d2: tf 1, |d| 2 -> K = 1.2 * (0.25 + 0.5) = 0.9;
  // d3: tf 1, |d| 4 -> K = 1.2 * (0.25 + 1) = 1.5.
  const expected = {
    d1: idfApple * (2 * 2.2) / (2 + 1.2),
    d2: idfCherry * 2.2 / (1 + 0.9),
    d3: idfCherry * 2.2 / (1 + 1.5),
  };
  const hits = index.search("apple cherry", 10);
  assert.deepEqual(hits.map((hit) => hit.id), ["d1", "d2", "d3"]);
  for (const hit of hits) near(hit.score, expected[hit.id as keyof typeof expected], 1e-9, hit.id);
  near(expected.d1, 1.3486402228911236, 1e-9, "d1 by hand");
});

Deno.test("OkapiBm25 honours custom k1 and b", () => {
  const index = tinyIndex({ k1: 2, b: 0 });
  const idfCherry = Math.log(1 + 1.5 / 2.5);
  // b = 0: no length normalization, so d2 and d3 (tf 1 each) score the same.
  const [first, second] = index.search("cherry", 10);
  near(first!.score, idfCherry * 3 / (1 + 2), 1e-9);
  near(second!.score, first!.score, 1e-12);
  assert.deepEqual([first!.id, second!.id], ["d2", "d3"], "ties break by id");
});

Deno.test("OkapiBm25.search() sums the query's terms once each", () => {
  const index = tinyIndex();
  assert.deepEqual(index.search("cherry cherry", 10), index.search("cherry", 10));
});

Deno.test("OkapiBm25.search() returns only documents that share a term, best first, limited", () => {
  const index = tinyIndex();
  // banana: tf 1 in both; the shorter d2 wins by length normalization.
  assert.deepEqual(index.search("banana", 10).map((hit) => hit.id), ["d2", "d1"]);
  assert.deepEqual(index.search("banana", 1).map((hit) => hit.id), ["d2"]);
  assert.deepEqual(index.search("kiwi", 10), []);
  assert.deepEqual(new OkapiBm25().search("anything", 10), []);
});

Deno.test("OkapiBm25.search() skips documents the accept callback refuses", () => {
  const index = tinyIndex();
  assert.deepEqual(index.search("banana", 10, (id) => id !== "d1").map((hit) => hit.id), ["d2"]);
});

Deno.test("OkapiBm25.remove() forgets a document and updates N and the average length", () => {
  const index = tinyIndex();
  assert.equal(index.remove("d1"), true);
  assert.equal(index.remove("d1"), false);
  assert.equal(index.size, 2);
  assert.deepEqual(index.search("apple", 10), []);
  // N = 2, average length 3: cherry is in both, idf = ln(1 + 0.5/2.5).
  const idf = Math.log(1 + 0.5 / 2.5);
  const [d2] = index.search("cherry", 10);
  near(d2!.score, idf * 2.2 / (1 + 1.2 * (0.25 + 0.75 * 2 / 3)), 1e-9);
});

Deno.test("OkapiBm25.add() with a known id replaces the document", () => {
  const index = tinyIndex();
  index.add("d1", "kiwi");
  assert.equal(index.size, 3);
  assert.deepEqual(index.search("apple", 10), []);
  assert.deepEqual(index.search("kiwi", 10).map((hit) => hit.id), ["d1"]);
});

Deno.test("OkapiBm25 uses analyze() by default, so inflections match", () => {
  const index = new OkapiBm25();
  index.add("a", "The models were trained on rankings");
  index.add("b", "Cats sleep all day");
  assert.deepEqual(index.search("model training", 10).map((hit) => hit.id), ["a"]);
});

import assert from "node:assert/strict";
import { HASHED_EMBEDDING_DIMENSIONS, hashedEmbedding } from "../../shared/embeddings/hashed.ts";

const dot = (x: readonly number[], y: readonly number[]) =>
  x.reduce((sum, value, i) => sum + value * y[i]!, 0);

Deno.test("hashedEmbedding() is deterministic", () => {
  const text = "Reciprocal rank fusion merges rankings";
  assert.deepEqual(hashedEmbedding(text), hashedEmbedding(text));
});

Deno.test("hashedEmbedding() has the default dimension unless told otherwise", () => {
  assert.equal(hashedEmbedding("rank fusion").length, HASHED_EMBEDDING_DIMENSIONS);
  assert.equal(hashedEmbedding("rank fusion", 64).length, 64);
});

Deno.test("hashedEmbedding() has unit norm", () => {
  for (
    const text of ["rank fusion", "a much longer text about dense and sparse retrieval models"]
  ) {
    assert.ok(Math.abs(Math.sqrt(dot(hashedEmbedding(text), hashedEmbedding(text))) - 1) < 1e-12);
  }
});

Deno.test("hashedEmbedding() of text without terms is the zero vector, not NaN", () => {
  const vector = hashedEmbedding("the and of", 32);
  assert.deepEqual(vector, new Array(32).fill(0));
});

Deno.test("hashedEmbedding() puts similar texts closer than unrelated ones", () => {
  const query = hashedEmbedding("reciprocal rank fusion of rankings");
  const similar = hashedEmbedding("fusing rankings with reciprocal rank fusion");
  const unrelated = hashedEmbedding("the cat sat quietly on a warm mat");
  assert.ok(dot(query, similar) > dot(query, unrelated) + 0.3);
});

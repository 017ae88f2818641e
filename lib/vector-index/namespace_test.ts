/**
 * The postings index against the plainest possible implementation of the
 * same definitions (a dot product with every vector, Okapi BM25 over every
 * document), on random chunks with random replacements and removals, so the
 * fast paths (sparse postings, dead slots, rebuilds, bulk builds) change
 * nothing but speed.
 */
import assert from "node:assert/strict";
import { OkapiBm25 } from "./fixtures/okapi-bm25.ts";
import { mulberry32 } from "./random.ts";
import { searchableText } from "./types.ts";
import { NamespaceIndex } from "./namespace.ts";
import { normalized, prepareChunk, type PreparedChunk } from "./prepared.ts";

const WORDS = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu".split(" ");
const DIMENSIONS = 16;

function randomChunk(random: () => number, id: string, doc: string): PreparedChunk {
  const text = Array.from(
    { length: 3 + Math.floor(random() * 8) },
    () => WORDS[Math.floor(random() * WORDS.length)]!,
  ).join(" ");
  const vector = Array.from(
    { length: DIMENSIONS },
    () => (random() < 0.3 ? Math.round((random() * 2 - 1) * 100) / 100 : 0),
  );
  return prepareChunk({ id, text, vector, metadata: { doc_id: doc, chunk_index: 0 } });
}

function naiveDense(chunks: PreparedChunk[], query: Float32Array, limit: number) {
  return chunks.map((chunk) => {
    const full = new Float32Array(DIMENSIONS);
    chunk.dims.forEach((dim, i) => (full[dim] = chunk.values[i]!));
    let dot = 0;
    for (let i = 0; i < DIMENSIONS; i++) dot += query[i]! * full[i]!;
    return { id: chunk.id, score: dot };
  }).sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1)).slice(0, limit);
}

Deno.test("NamespaceIndex finds what a full scan and a plain BM25 find, through removals and rebuilds", () => {
  const random = mulberry32(3);
  const index = new NamespaceIndex();
  const live = new Map<string, PreparedChunk>();
  for (let step = 0; step < 3000; step++) {
    const id = `c${Math.floor(random() * 400)}`;
    const roll = random();
    if (roll < 0.1) {
      // Whole documents (ten chunks each: c0..c9 are d0's) go at once, rebuilds and all.
      const doc = `d${Math.floor(random() * 40)}`;
      index.removeDocument(doc);
      for (const [key, chunk] of live) if (chunk.metadata.doc_id === doc) live.delete(key);
    } else if (roll < 0.3) {
      index.remove(id);
      live.delete(id);
    } else {
      const chunk = randomChunk(random, id, `d${Math.floor(Number(id.slice(1)) / 10)}`);
      index.put(chunk);
      live.set(id, chunk);
    }
  }
  const chunks = [...live.values()];
  const built = NamespaceIndex.build(chunks);
  const bm25 = new OkapiBm25();
  for (const chunk of chunks) bm25.add(chunk.id, searchableText(chunk));
  assert.equal(index.size, chunks.length);
  for (let q = 0; q < 50; q++) {
    const vector = normalized(
      Array.from({ length: DIMENSIONS }, () => (random() < 0.2 ? random() - 0.5 : 0)),
    );
    const expected = naiveDense(chunks, vector, 10).map((hit) => hit.id);
    assert.deepEqual(index.dense(vector, 10).map((hit) => hit.id), expected, `dense ${q}`);
    assert.deepEqual(built.dense(vector, 10).map((hit) => hit.id), expected, `built dense ${q}`);
    const text = `${WORDS[q % WORDS.length]} ${WORDS[(q * 7) % WORDS.length]}`;
    const sparse = bm25.search(text, 10);
    const close = (got: { id: string; score: number }[]) => {
      assert.deepEqual(got.map((hit) => hit.id), sparse.map((hit) => hit.id), `sparse ${q}`);
      got.forEach((hit, i) => assert.ok(Math.abs(hit.score - sparse[i]!.score) < 1e-9));
    };
    close(index.sparse(text, 10));
    close(built.sparse(text, 10));
  }
});

/**
 * The embedded index on dense vectors (a real model's: every dimension
 * nonzero): int8 rows and bit codes instead of postings, checked against an
 * exact float search over the same vectors.
 */
import assert from "node:assert/strict";
import { denseEmbedder } from "./fixtures/dense-embedder.ts";
import { EmbeddedIndex } from "./index.ts";
import { CODES_FROM_ROWS } from "./dense-vectors.ts";
import { decodeRecords } from "./record.ts";
import type { IndexedChunk } from "./types.ts";
import { memoryIndexLog } from "./fixtures/memory-log.ts";

const WIDTH = 1024;
const embed = denseEmbedder(WIDTH);
const NS = { namespace: "dense" };

function chunks(from: number, count: number, docPrefix = "doc"): IndexedChunk[] {
  return Array.from({ length: count }, (_, i) => {
    const n = from + i;
    return {
      id: `${docPrefix}-${n}#0`,
      text: `passage ${n} about topic ${n % 13}`,
      vector: Array.from(embed(`${docPrefix}-${n}`)),
      metadata: { doc_id: `${docPrefix}-${n}`, chunk_index: 0, shard: n % 500 },
    };
  });
}

function exactTop(corpus: IndexedChunk[], query: number[], k: number): string[] {
  return corpus
    .map((chunk) => ({
      id: chunk.id,
      score: chunk.vector.reduce((sum, value, d) => sum + value * query[d]!, 0),
    }))
    .sort((a, b) => b.score - a.score)
    .slice(0, k)
    .map((hit) => hit.id);
}

async function recallAt10(index: EmbeddedIndex, corpus: IndexedChunk[]): Promise<number> {
  let found = 0;
  const queries = 20;
  for (let q = 0; q < queries; q++) {
    const vector = Array.from(embed(`question ${q}`));
    const truth = new Set(exactTop(corpus, vector, 10));
    const hits = await index.query({ text: "", vector, mode: "dense", topK: 10, ...NS });
    assert.equal(hits.length, 10);
    found += hits.filter((hit) => truth.has(hit.id)).length;
  }
  return found / (queries * 10);
}

const corpus = chunks(0, CODES_FROM_ROWS + 1500);

Deno.test("dense vectors past the bit-code threshold: recall@10 against exact float search ≥ 0.95", async () => {
  const index = new EmbeddedIndex();
  await index.upsert(corpus, NS);
  const recall = await recallAt10(index, corpus);
  assert.ok(recall >= 0.95, `recall@10 ${recall}`);
  // Scores are cosines, to int8 precision.
  const vector = corpus[42]!.vector;
  const [best] = await index.query({ text: "", vector, mode: "dense", topK: 1, ...NS });
  assert.equal(best!.id, corpus[42]!.id);
  assert.ok(Math.abs(best!.score - 1) < 0.01, `self-similarity ${best!.score}`);
});

Deno.test("a dense chunk is logged as float32 values without dimension numbers", async () => {
  const log = memoryIndexLog();
  const index = new EmbeddedIndex({ log });
  await index.upsert(chunks(0, 3), NS);
  const [record] = decodeRecords(log.bytes).records;
  const put = record!.put[0]!;
  assert.equal(put.dense, true);
  assert.equal(put.dims.length, 0);
  assert.equal(put.values.length, WIDTH);
  // About 4 bytes a dimension (plus text and terms), not 8 as postings would take.
  assert.ok(log.bytes.length < 3 * (WIDTH * 4 + 400), `${log.bytes.length} bytes`);
});

Deno.test("a checkpoint of dense rows and bit codes restores the same searches, and the log's tail on top", async () => {
  const log = memoryIndexLog(new Uint8Array(), { checkpointAt: 1 });
  const index = new EmbeddedIndex({ log });
  await index.upsert(corpus, NS);
  await index.flush();
  assert.ok(log.checkpoints >= 1);
  const tail = chunks(100_000, 50);
  await index.upsert(tail, NS);
  await index.deleteDocument("doc-7", NS);
  const reopened = new EmbeddedIndex({ log });
  assert.equal(await reopened.count(NS), corpus.length + tail.length - 1);
  for (let q = 0; q < 5; q++) {
    const vector = Array.from(embed(`question ${q}`));
    const request = { text: "", vector, mode: "dense" as const, topK: 10, ...NS };
    assert.deepEqual(await reopened.query(request), await index.query(request));
  }
  const [fromTail] = await reopened.query({
    text: "",
    vector: tail[3]!.vector,
    mode: "dense",
    topK: 1,
    ...NS,
  });
  assert.equal(fromTail!.id, tail[3]!.id);
  const gone = await reopened.query({
    text: "",
    vector: corpus[7]!.vector,
    mode: "dense",
    topK: 3,
    ...NS,
  });
  assert.ok(!gone.some((hit) => hit.doc_id === "doc-7"));
});

Deno.test("a filter few dense chunks pass still returns them all (the search falls back to every row)", async () => {
  const index = new EmbeddedIndex();
  await index.upsert(corpus, NS);
  const vector = Array.from(embed("question 1"));
  const hits = await index.query({
    text: "",
    vector,
    mode: "dense",
    topK: 100,
    filter: { shard: 499 },
    ...NS,
  });
  const expected = corpus.filter((chunk) => chunk.metadata.shard === 499);
  assert.equal(hits.length, expected.length);
  assert.deepEqual(
    hits.map((hit) => hit.id),
    exactTop(expected, vector, 100),
  );
});

Deno.test("removing most dense chunks rebuilds the rows, and searches stay exact on what is left", async () => {
  const index = new EmbeddedIndex();
  await index.upsert(corpus, NS);
  const kept = corpus.filter((_, i) => i % 5 === 0);
  for (const chunk of corpus) {
    if (!kept.includes(chunk)) await index.deleteDocument(chunk.metadata.doc_id, NS);
  }
  assert.equal(await index.count(NS), kept.length);
  assert.ok(await recallAt10(index, kept) >= 0.95);
});

Deno.test("an emptied namespace takes the layout of the vectors that come next", async () => {
  const index = new EmbeddedIndex();
  await index.upsert(chunks(0, 10), NS);
  for (let n = 0; n < 10; n++) await index.deleteDocument(`doc-${n}`, NS);
  // Toy 3-d vectors now: sparse postings, exact cosines.
  await index.upsert([
    { id: "x#0", text: "x", vector: [1, 0, 0], metadata: { doc_id: "x", chunk_index: 0 } },
    { id: "y#0", text: "y", vector: [0.6, 0.8, 0], metadata: { doc_id: "y", chunk_index: 0 } },
  ], NS);
  const hits = await index.query({ text: "", vector: [1, 0, 0], mode: "dense", topK: 5, ...NS });
  assert.deepEqual(hits.map((hit) => [hit.id, Number(hit.score.toFixed(6))]), [
    ["x#0", 1],
    ["y#0", 0.6],
  ]);
});

Deno.test("hybrid search fuses the dense rows with BM25", async () => {
  const index = new EmbeddedIndex();
  await index.upsert(corpus.slice(0, 500), NS);
  const target = corpus[77]!;
  const hits = await index.query({
    text: "passage 77",
    vector: target.vector,
    mode: "hybrid",
    topK: 5,
    ...NS,
  });
  assert.equal(hits[0]!.id, target.id);
});

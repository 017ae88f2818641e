import assert from "node:assert/strict";
import { SiftError } from "../../shared/errors.ts";
import { LocalIndex } from "../../shared/vector/local.ts";
import type { IndexedChunk } from "../../shared/vector/port.ts";
import type { SnapshotStore } from "../../shared/vector/snapshot.ts";

const NS = { namespace: "default" };

function chunk(
  docId: string,
  index: number,
  text: string,
  vector: number[],
  extra: Record<string, unknown> = {},
): IndexedChunk {
  return {
    id: `${docId}#${index}`,
    text,
    vector,
    metadata: { doc_id: docId, chunk_index: index, ...extra },
  };
}

/**
 * Dense order for [1, 0, 0] is a, b, c (c is orthogonal); sparse (BM25) order
 * for "gamma" is c (tf 2), b (tf 1); a has no "gamma" at all.
 */
const corpus = [
  chunk("a", 0, "alpha", [1, 0, 0], { year: 2018 }),
  chunk("b", 0, "beta gamma", [0.9, 0.1, 0], { year: 2019 }),
  chunk("c", 0, "gamma gamma", [0, 1, 0], { year: 2020 }),
];

async function indexWith(chunks: IndexedChunk[] = corpus, snapshot?: SnapshotStore) {
  const index = new LocalIndex(snapshot ? { snapshot } : {});
  await index.upsert(chunks, NS);
  return index;
}

const query = { text: "gamma", vector: [1, 0, 0], topK: 10, namespace: "default" };

/** A SnapshotStore in memory that counts its writes. */
function memorySnapshot(initial?: string) {
  const store = {
    location: "memory://index.json",
    text: initial,
    saves: 0,
    load: () => Promise.resolve(store.text),
    save: (text: string) => {
      store.text = text;
      store.saves++;
      return Promise.resolve();
    },
  };
  return store;
}

Deno.test("LocalIndex dense search ranks by cosine similarity", async () => {
  const index = await indexWith();
  const hits = await index.query({ ...query, mode: "dense" });
  assert.deepEqual(hits.map((hit) => hit.id), ["a#0", "b#0", "c#0"]);
  assert.ok(Math.abs(hits[0]!.score - 1) < 1e-6);
  assert.ok(Math.abs(hits[1]!.score - 0.9 / Math.hypot(0.9, 0.1)) < 1e-6);
  assert.ok(Math.abs(hits[2]!.score) < 1e-6);
  assert.equal(hits[0]!.doc_id, "a");
  assert.equal(hits[0]!.text, "alpha");
  assert.deepEqual(hits[0]!.metadata, { doc_id: "a", chunk_index: 0, year: 2018 });
});

Deno.test("LocalIndex sparse search ranks by BM25 and needs no vector", async () => {
  const index = await indexWith();
  const hits = await index.query({ text: "gamma", mode: "sparse", topK: 10, namespace: "default" });
  assert.deepEqual(hits.map((hit) => hit.id), ["c#0", "b#0"]);
});

Deno.test("LocalIndex hybrid search fuses the dense and sparse ranks by RRF", async () => {
  const index = await indexWith();
  const hits = await index.query({ ...query, mode: "hybrid" });
  // dense ranks a 1, b 2, c 3; sparse ranks c 1, b 2.
  const expected = [
    { id: "c#0", score: 1 / 63 + 1 / 61 },
    { id: "b#0", score: 1 / 62 + 1 / 62 },
    { id: "a#0", score: 1 / 61 },
  ];
  assert.deepEqual(hits.map((hit) => hit.id), expected.map((item) => item.id));
  hits.forEach((hit, i) => assert.ok(Math.abs(hit.score - expected[i]!.score) < 1e-12, hit.id));
});

Deno.test("LocalIndex returns at most topK hits and none for topK 0", async () => {
  const index = await indexWith();
  assert.equal((await index.query({ ...query, mode: "hybrid", topK: 2 })).length, 2);
  assert.deepEqual(await index.query({ ...query, mode: "dense", topK: 0 }), []);
});

Deno.test("LocalIndex keeps namespaces apart", async () => {
  const index = await indexWith();
  await index.upsert([chunk("z", 0, "gamma zeta", [0, 0, 1])], { namespace: "other" });
  assert.equal(await index.count(NS), 3);
  assert.equal(await index.count({ namespace: "other" }), 1);
  assert.equal(await index.count({ namespace: "nowhere" }), 0);
  const other = await index.query({ ...query, mode: "hybrid", namespace: "other" });
  assert.deepEqual(other.map((hit) => hit.id), ["z#0"]);
  assert.deepEqual(await index.query({ ...query, mode: "dense", namespace: "nowhere" }), []);
});

Deno.test("LocalIndex applies the metadata filter in every mode", async () => {
  const index = await indexWith();
  const filter = { year: { gte: 2019 } };
  for (const mode of ["dense", "sparse", "hybrid"] as const) {
    const hits = await index.query({ ...query, mode, filter });
    assert.deepEqual(hits.map((hit) => hit.id).sort(), ["b#0", "c#0"], mode);
  }
  const one = await index.query({ ...query, mode: "hybrid", filter: { doc_id: "b" } });
  assert.deepEqual(one.map((hit) => hit.id), ["b#0"]);
});

Deno.test("LocalIndex.deleteDocument() removes every chunk of that document only", async () => {
  const index = await indexWith([
    ...corpus,
    chunk("b", 1, "beta delta", [0.5, 0.5, 0]),
    chunk("b2", 0, "beta", [0.5, 0.5, 0]),
  ]);
  assert.equal(await index.deleteDocument("b", NS), 2);
  assert.equal(await index.deleteDocument("b", NS), 0);
  assert.equal(await index.deleteDocument("b", { namespace: "nowhere" }), 0);
  const hits = await index.query({ text: "beta", mode: "sparse", topK: 10, namespace: "default" });
  assert.deepEqual(hits.map((hit) => hit.id), ["b2#0"]);
  assert.equal(await index.count(NS), 3);
});

Deno.test("LocalIndex.upsert() with a known id replaces the chunk", async () => {
  const index = await indexWith();
  await index.upsert([chunk("a", 0, "omega", [0, 0, 1])], NS);
  assert.equal(await index.count(NS), 3);
  const hits = await index.query({ text: "omega", mode: "sparse", topK: 10, namespace: "default" });
  assert.deepEqual(hits.map((hit) => [hit.id, hit.text]), [["a#0", "omega"]]);
  assert.deepEqual(await index.query({ ...query, text: "alpha", mode: "sparse" }), []);
});

Deno.test("LocalIndex refuses a dense query without a vector or with another dimension", async () => {
  const index = await indexWith();
  await assert.rejects(
    index.query({ text: "gamma", mode: "dense", topK: 3, namespace: "default" }),
    (error: SiftError) => error.status === 400 && error.message.startsWith("vector:"),
  );
  await assert.rejects(
    index.query({ ...query, vector: [1, 0], mode: "hybrid" }),
    (error: SiftError) => error.status === 400 && /3-dimensional/.test(error.message),
  );
});

Deno.test("LocalIndex writes a snapshot another LocalIndex reads back", async () => {
  const store = memorySnapshot();
  const first = await indexWith(corpus, store);
  await first.upsert([chunk("z", 0, "gamma zeta", [0, 0, 1])], { namespace: "other" });
  await first.deleteDocument("a", NS);
  assert.equal(store.saves, 3);

  const second = new LocalIndex({ snapshot: store });
  assert.equal(await second.count(NS), 2);
  assert.equal(await second.count({ namespace: "other" }), 1);
  for (const mode of ["dense", "sparse", "hybrid"] as const) {
    const before = await first.query({ ...query, mode });
    const after = await second.query({ ...query, mode });
    assert.deepEqual(after.map((hit) => hit.id), before.map((hit) => hit.id), mode);
    after.forEach((hit, i) => {
      assert.ok(Math.abs(hit.score - before[i]!.score) < 1e-5, `${mode} ${hit.id}`);
      assert.deepEqual(hit.metadata, before[i]!.metadata);
    });
  }
});

Deno.test("LocalIndex does not write a snapshot when a delete removes nothing", async () => {
  const store = memorySnapshot();
  const index = await indexWith(corpus, store);
  await index.deleteDocument("nothing", NS);
  assert.equal(store.saves, 1);
});

Deno.test("LocalIndex fails with a 500 SiftError on a snapshot of the wrong shape", async () => {
  const index = new LocalIndex({ snapshot: memorySnapshot('{"version": 2, "namespaces": {}}') });
  await assert.rejects(
    index.count(NS),
    (error: unknown) =>
      error instanceof SiftError && error.status === 500 && /unreadable/.test(error.message),
  );
  // It stays failed rather than overwriting the file with an empty index.
  await assert.rejects(index.upsert(corpus, NS), SiftError);
});

Deno.test({
  name: "LocalIndex fails with a 500 SiftError on a snapshot that is not JSON",
  async fn() {
    const index = new LocalIndex({ snapshot: memorySnapshot('{"version": 1, "namesp') });
    await assert.rejects(
      index.count(NS),
      (error: unknown) =>
        error instanceof SiftError && error.status === 500 && /unreadable/.test(error.message),
    );
  },
});

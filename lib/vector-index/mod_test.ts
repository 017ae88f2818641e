/** The library's public API on its own: no sift import, a real directory, a reopen. */
import assert from "node:assert/strict";
import { IndexInputError, openIndex } from "./deno/mod.ts";
import type { IndexedChunk } from "./types.ts";

const chunk = (doc: string, index: number, text: string, vector: number[]): IndexedChunk => ({
  id: `${doc}#${index}`,
  text,
  vector,
  metadata: { doc_id: doc, chunk_index: index, title: doc },
});

const CORPUS = [
  chunk("cats", 0, "Cats purr when they are content", [1, 0, 0]),
  chunk("cats", 1, "A cat sleeps most of the day", [0.9, 0.1, 0]),
  chunk("dogs", 0, "Dogs bark at strangers", [0, 1, 0]),
  chunk("fish", 0, "Fish swim in schools", [0, 0, 1]),
];

Deno.test("openIndex: upsert, dense, sparse and hybrid query, list, delete, close, and reopen finds the data", async () => {
  const dir = await Deno.makeTempDir({ prefix: "vector-index-" });
  try {
    const index = await openIndex({ dir });
    await index.upsert(CORPUS);
    await index.upsert([chunk("birds", 0, "Birds sing at dawn", [0, 0.7, 0.7])], {
      namespace: "other",
    });

    const dense = await index.query({ mode: "dense", vector: [0, 1, 0.3], topK: 2 });
    assert.deepEqual(dense.map((hit) => hit.id), ["dogs#0", "fish#0"]);
    const sparse = await index.query({ mode: "sparse", text: "purring cats" });
    assert.equal(sparse[0]?.id, "cats#0");
    assert.equal(sparse[0]?.doc_id, "cats");
    const hybrid = await index.query({ mode: "hybrid", text: "cat", vector: [1, 0, 0], topK: 3 });
    assert.deepEqual(hybrid.slice(0, 2).map((hit) => hit.id).sort(), ["cats#0", "cats#1"]);
    const filtered = await index.query({
      mode: "dense",
      vector: [1, 0, 0],
      filter: { doc_id: { ne: "cats" } },
    });
    assert.ok(filtered.length > 0 && filtered.every((hit) => hit.doc_id !== "cats"));
    assert.deepEqual(
      (await index.query({ mode: "sparse", text: "birds", namespace: "other" })).map((h) => h.id),
      ["birds#0"],
    );

    const page = await index.list({ limit: 2 });
    assert.deepEqual(page.documents.map((doc) => [doc.id, doc.chunks]), [["cats", 2], ["dogs", 1]]);
    assert.equal(page.more, true);
    const rest = await index.list({ after: "dogs" });
    assert.deepEqual(rest, {
      documents: [{ id: "fish", metadata: CORPUS[3]!.metadata, chunks: 1 }],
      more: false,
    });

    assert.equal(await index.delete("dogs"), 1);
    assert.equal(await index.delete("dogs"), 0);
    await assert.rejects(index.query({ mode: "dense", text: "no vector" }), IndexInputError);
    await assert.rejects(
      index.upsert([chunk("wide", 0, "too wide", [1, 0, 0, 0])]),
      IndexInputError,
    );
    await index.close();

    const reopened = await openIndex({ dir });
    assert.deepEqual((await reopened.list()).documents.map((doc) => doc.id), ["cats", "fish"]);
    assert.equal(
      (await reopened.query({ mode: "sparse", text: "dawn", namespace: "other" }))[0]?.id,
      "birds#0",
    );
    assert.equal(
      (await reopened.query({ mode: "dense", vector: [0, 0.2, 1], topK: 1 }))[0]?.id,
      "fish#0",
    );
    await reopened.upsert([chunk("dogs", 0, "Dogs are back", [0, 1, 0])]);
    await reopened.close();
    const third = await openIndex({ dir });
    assert.equal((await third.query({ mode: "sparse", text: "back" }))[0]?.id, "dogs#0");
    await third.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("openIndex without dir keeps everything in memory", async () => {
  const index = await openIndex();
  await index.upsert(CORPUS);
  assert.equal((await index.query({ mode: "sparse", text: "strangers" }))[0]?.id, "dogs#0");
  assert.equal(index.status().status, "ok");
  await index.close();
});

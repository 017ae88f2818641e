import assert from "node:assert/strict";
import { checkpointSections, readCheckpointV2 } from "./checkpoint-v2.ts";
import { NamespaceIndex } from "./namespace.ts";
import { prepareChunk } from "./prepared.ts";
import { mulberry32 } from "./random.ts";
import type { ChunkMetadata } from "./types.ts";

/** The namespace written as a checkpoint (directory format 3) and restored from its bytes. */
function reloaded(index: NamespaceIndex, keys: 2 | 3 = 3): NamespaceIndex {
  const parts = [...checkpointSections(new Map([["ns", index.view()]]), 1)];
  const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) bytes.set(part, (at += part.length) - part.length);
  const directory = new TextDecoder().decode(bytes.subarray(Math.max(0, bytes.length - 4096)));
  assert.match(directory, /"format":3/);
  assert.equal(/"documents":/.test(directory), keys === 3, "ids and documents as columns");
  return NamespaceIndex.restore(readCheckpointV2(bytes).namespaces.get("ns")!);
}

/** Everything the keys answer, for every document and id the model knows. */
function observed(index: NamespaceIndex, docIds: string[]) {
  return {
    size: index.size,
    documents: [...index.documentIds()].sort(),
    perDocument: docIds.map((docId) => ({
      has: index.hasDocument(docId),
      size: index.documentSize(docId),
      chunks: index.documentChunks(docId).map((chunk) => [chunk.id, chunk.text, chunk.metadata]),
      first: index.documentMetadata(docId),
    })),
    hits: docIds.flatMap((docId) => index.documentChunks(docId).map((chunk) => chunk.id))
      .sort().map((id) => [id, index.hit(id)]),
    sparse: index.sparse("common word", 20),
    filtered: index.sparse("common", 20, { page: 3 }),
  };
}

Deno.test("keys restored from a checkpoint answer as the in-memory keys do, through puts that replace, removals, a second checkpoint and a rebuild", () => {
  const random = mulberry32(5);
  const docIds = Array.from({ length: 60 }, (_, d) => `doc-${d}-é`);
  const ids = docIds.flatMap((docId) => Array.from({ length: 8 }, (_, i) => `${docId}#${i}`));
  let version = 0;
  const chunk = (id: string, docId = id.split("#")[0]!) =>
    prepareChunk({
      id,
      text: `common ${random() < 0.5 ? "word" : "other"} ${id} v${++version}`,
      vector: [random(), random(), random() + 0.1],
      metadata: {
        doc_id: docId,
        chunk_index: Number(id.split("#")[1]),
        page: Math.floor(random() * 5),
        title: `Title of ${docId}`,
      } as ChunkMetadata,
    });
  const memory = NamespaceIndex.build(ids.filter(() => random() < 0.7).map((id) => chunk(id)));
  let restored = reloaded(memory);
  const steps = (count: number) => {
    for (let step = 0; step < count; step++) {
      const roll = random();
      const id = ids[Math.floor(random() * ids.length)]!;
      const docId = docIds[Math.floor(random() * docIds.length)]!;
      if (roll < 0.45) {
        // Sometimes the same id under another document: the id moves.
        const put = random() < 0.2 ? chunk(id, docId) : chunk(id);
        memory.put(put);
        restored.put(put);
      } else if (roll < 0.8) assert.equal(restored.remove(id), memory.remove(id));
      else assert.equal(restored.removeDocument(docId), memory.removeDocument(docId));
    }
    assert.deepEqual(observed(restored, docIds), observed(memory, docIds));
  };
  assert.deepEqual(observed(restored, docIds), observed(memory, docIds));
  steps(300);
  // Written again: stored keys and keys appended since, together.
  restored = reloaded(restored);
  assert.deepEqual(observed(restored, docIds), observed(memory, docIds));
  steps(300);
  // Removals past the rebuild threshold: the restored index rebuilds from its snapshot.
  for (const docId of docIds.slice(0, 55)) {
    assert.equal(restored.removeDocument(docId), memory.removeDocument(docId));
  }
  assert.deepEqual(observed(restored, docIds), observed(memory, docIds));
  steps(100);
  assert.deepEqual(observed(reloaded(restored), docIds), observed(memory, docIds));
});

Deno.test("an id with a lone surrogate survives a checkpoint (such keys are written as JSON)", () => {
  const index = NamespaceIndex.build(["ok#0", "bad\ud800#0"].map((id) =>
    prepareChunk({
      id,
      text: `text of ${id.slice(0, 2)}`,
      vector: [1, 0, 1],
      metadata: { doc_id: id.split("#")[0]!, chunk_index: 0 },
    })
  ));
  const restored = reloaded(index, 2);
  assert.deepEqual([...restored.documentIds()].sort(), ["bad\ud800", "ok"]);
  assert.equal(restored.hit("bad\ud800#0").text, "text of ba");
  assert.equal(restored.remove("bad\ud800#0"), true);
});

Deno.test("idBefore orders stored ids as strings compare, across ASCII, accents, U+E000 and up, and surrogate pairs", () => {
  const ids = ["a", "ab", "b", "é", "ü", "\ue000", "\uffee", "😀", "😀a", "\u{10000}", "Z", ""];
  const index = NamespaceIndex.build(
    ids.map((id) =>
      prepareChunk({ id, text: id, vector: [1, 0, 1], metadata: { doc_id: id, chunk_index: 0 } })
    ),
  );
  const restored = reloaded(index);
  // Equal scores everywhere: the order is the ids' order, ties broken by `idBefore`.
  const found = restored.dense(Float32Array.of(Math.SQRT1_2, 0, Math.SQRT1_2), ids.length);
  assert.deepEqual(found.map((hit) => hit.id), [...ids].sort());
});

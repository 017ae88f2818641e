/** The bulk build: the same searches as upserts, onto an existing index, and kill -9 mid-build. */
import assert from "node:assert/strict";
import { type BulkPiece, prepareBulkPiece, readBulkPiece } from "./bulk.ts";
import { openIndex, type VectorIndexHandle } from "./deno/mod.ts";
import { syntheticChunks } from "./fixtures/bulk-chunks.ts";
import type { IndexedChunk } from "./types.ts";
import { mulberry32 } from "./random.ts";

const QUERIES = ["dense vector", "crash log checkpoint", "stem term posting", "hybrid rank fusion"];

/** Every mode's top 10 for a few queries: ids and scores. */
async function searches(index: VectorIndexHandle) {
  const random = mulberry32(7);
  const out = [];
  for (const text of QUERIES) {
    const vector = Array.from({ length: 64 }, () => random() * 2 - 1);
    for (const mode of ["dense", "sparse", "hybrid"] as const) {
      const hits = await index.query({ mode, text, vector, topK: 10 });
      out.push(hits.map((hit) => [hit.id, hit.score.toFixed(6), hit.text]));
    }
    const filtered = await index.query({ mode: "sparse", text, filter: { title: "T3" } });
    out.push(filtered.map((hit) => hit.id));
  }
  return out;
}

function batches<T>(items: T[], size: number): T[][] {
  return Array.from(
    { length: Math.ceil(items.length / size) },
    (_, i) => items.slice(i * size, (i + 1) * size),
  );
}

Deno.test("bulkUpsert: the same searches as the same chunks upserted, before and after a reopen", async () => {
  const chunks = syntheticChunks("doc", 3000, 1);
  // A chunk given twice: the later one stands, as with two upserts.
  const again: IndexedChunk = { ...chunks[5]!, text: "replaced crash log text" };
  const upserted = await openIndex();
  for (const batch of batches(chunks, 500)) await upserted.upsert(batch);
  await upserted.upsert([again]);
  const dir = await Deno.makeTempDir({ prefix: "vector-index-bulk-" });
  try {
    let bulk = await openIndex({ dir });
    const reported: number[] = [];
    const result = await bulk.bulkUpsert([...batches(chunks, 700), [again]], {
      workers: 2,
      onDurable: (count) => reported.push(count),
    });
    assert.equal(result.chunks, 3001);
    assert.deepEqual(reported, [700, 700, 700, 700, 200, 1]);
    const expected = await searches(upserted);
    assert.deepEqual(await searches(bulk), expected);
    assert.equal((await bulk.list({ limit: 5000 })).documents.length, 3000);
    await bulk.close();
    // Closed by a checkpoint: a reopen maps it and finds the same.
    bulk = await openIndex({ dir });
    assert.deepEqual(await searches(bulk), expected);
    await bulk.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("bulkUpsert: onto an index that has a checkpoint and a log, replacing some of its chunks", async () => {
  const first = syntheticChunks("doc", 1500, 2);
  const second = syntheticChunks("doc", 2500, 3).slice(1000); // doc-1000 … doc-2499: 500 replaced
  const upserted = await openIndex();
  await upserted.upsert(first);
  await upserted.upsert(second);
  const dir = await Deno.makeTempDir({ prefix: "vector-index-bulk-" });
  try {
    let index = await openIndex({ dir });
    await index.upsert(first.slice(0, 1000));
    await index.close(); // a checkpoint
    index = await openIndex({ dir });
    await index.upsert(first.slice(1000)); // and a log after it
    await index.bulkUpsert(batches(second, 600), { workers: 2 });
    assert.deepEqual(await searches(index), await searches(upserted));
    await index.close();
    index = await openIndex({ dir });
    assert.deepEqual(await searches(index), await searches(upserted));
    assert.equal((await index.list({ limit: 5000 })).documents.length, 2500);
    await index.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("prepareBulkPiece: a replaced document's chunks are one version; two are refused, not merged", () => {
  const [long0, long1] = syntheticChunks("x", 2, 6).map((chunk, i) => ({
    ...chunk,
    id: `x#${i}`,
    metadata: { ...chunk.metadata, doc_id: "x", chunk_index: i },
  }));
  const short0 = { ...long0!, text: "the short version" };
  const options = { namespace: "default", replace: ["x"] };
  // One record cannot say that a later version drops x#1: a piece holding both would keep it.
  assert.throws(
    () => prepareBulkPiece([long0!, long1!, short0], options),
    /x#0 twice.*replaced/,
  );
  const put = (piece: BulkPiece) => readBulkPiece(piece).put.map((chunk) => [chunk.id, chunk.text]);
  assert.deepEqual(put(prepareBulkPiece([short0], options)), [["x#0", "the short version"]]);
  // Without a replace, a chunk given twice is the later one's, as with upserts one after another.
  assert.deepEqual(put(prepareBulkPiece([long0!, long1!, short0], { namespace: "default" })), [
    ["x#1", long1!.text],
    ["x#0", "the short version"],
  ]);
});

Deno.test("bulkUpsert: a vector of another width is refused before anything is written", async () => {
  const index = await openIndex();
  await index.upsert(syntheticChunks("doc", 10, 4));
  const narrow = syntheticChunks("other", 10, 5).map((chunk) => ({
    ...chunk,
    vector: chunk.vector.slice(0, 32),
  }));
  await assert.rejects(index.bulkUpsert([narrow], { workers: 1 }), /64-dimensional/);
  assert.equal((await index.list()).documents.length, 10);
});

Deno.test("bulkUpsert: kill -9 mid-build leaves the index before it plus a prefix of the pieces, every reported one among them", async () => {
  const dir = await Deno.makeTempDir({ prefix: "vector-index-bulk-kill-" });
  const PIECE = 2000;
  try {
    const before = await openIndex({ dir });
    await before.upsert(syntheticChunks("before", 300, 9));
    await before.close();
    for (const killAfter of [1, 3]) {
      const child = new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "-A",
          new URL("./fixtures/bulk-child.ts", import.meta.url).pathname,
          dir,
          "200",
          String(PIECE),
        ],
        stdout: "piped",
        stderr: "inherit",
      }).spawn();
      let reported = 0;
      const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = "";
      const deadline = Date.now() + 120_000;
      while (Date.now() < deadline) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        const lines = buffer.split("\n");
        buffer = lines.pop()!;
        for (const line of lines) {
          const match = /^durable (\d+)$/.exec(line);
          if (match) reported = Number(match[1]);
        }
        if (reported >= killAfter * PIECE) break;
      }
      child.kill("SIGKILL");
      await child.status;
      await reader.cancel().catch(() => {});
      assert.ok(reported >= killAfter * PIECE, `the child reported ${reported} chunks`);
      // Reopened: no damage, the 300 from before, and whole pieces from the first on.
      const index = await openIndex({ dir });
      const documents = (await index.list({ limit: 1_000_000 })).documents.map((doc) => doc.id);
      const from = (piece: number) => documents.filter((id) => id.startsWith(`bulk-${piece}-`));
      assert.equal(documents.filter((id) => id.startsWith("before-")).length, 300);
      let pieces = 0;
      while (from(pieces).length === PIECE) pieces++;
      assert.equal(documents.length, 300 + pieces * PIECE, "only whole pieces, in order");
      assert.ok(pieces * PIECE >= reported, `${pieces} pieces held, ${reported} chunks reported`);
      const hit = await index.query({ mode: "sparse", text: "checkpoint crash", topK: 3 });
      assert.equal(hit.length, 3);
      await index.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

import assert from "node:assert/strict";
import { IndexDamagedError, SiftError } from "../../shared/errors.ts";
import { LocalIndex } from "../../adapters/vector-index/local.ts";
import type { IndexedChunk } from "../../shared/vector/port.ts";
import {
  encodeRecord,
  IndexDamagedError as DamagedFile,
  type IndexLog,
} from "../../lib/vector-index/mod.ts";
import { memoryIndexLog } from "../../lib/vector-index/testing.ts";
import { mulberry32 } from "../../shared/random.ts";

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

async function indexWith(chunks: IndexedChunk[] = corpus, log?: IndexLog) {
  const index = new LocalIndex(log ? { log } : {});
  await index.upsert(chunks, NS);
  return index;
}

const query = { text: "gamma", vector: [1, 0, 0], topK: 10, namespace: "default" };

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

Deno.test("LocalIndex writes a log another LocalIndex reads back", async () => {
  const log = memoryIndexLog();
  const first = await indexWith(corpus, log);
  await first.upsert([chunk("z", 0, "gamma zeta", [0, 0, 1])], { namespace: "other" });
  await first.deleteDocument("a", NS);
  assert.equal(log.appends, 3);

  const second = new LocalIndex({ log });
  assert.equal(await second.count(NS), 2);
  assert.equal(await second.count({ namespace: "other" }), 1);
  for (const mode of ["dense", "sparse", "hybrid"] as const) {
    const before = await first.query({ ...query, mode });
    const after = await second.query({ ...query, mode });
    assert.deepEqual(after.map((hit) => hit.id), before.map((hit) => hit.id), mode);
    after.forEach((hit, i) => {
      assert.equal(hit.score, before[i]!.score, `${mode} ${hit.id}`);
      assert.deepEqual(hit.metadata, before[i]!.metadata);
    });
  }
});

Deno.test("LocalIndex does not write when a delete removes nothing", async () => {
  const log = memoryIndexLog();
  const index = await indexWith(corpus, log);
  await index.deleteDocument("nothing", NS);
  assert.equal(log.appends, 1);
});

Deno.test("LocalIndex.replaceDocuments() swaps a document's chunks in one record", async () => {
  const log = memoryIndexLog();
  const index = await indexWith(
    [chunk("a", 0, "alpha", [1, 0, 0]), chunk("a", 1, "alpha tail", [1, 0, 0])],
    log,
  );
  await index.replaceDocuments(["a"], [chunk("a", 0, "alpha again", [1, 0, 0])], NS);
  assert.equal(log.appends, 2);
  assert.equal(await index.count(NS), 1);
  const reread = new LocalIndex({ log });
  const hits = await reread.query({ ...query, text: "alpha", mode: "sparse" });
  assert.deepEqual(hits.map((hit) => [hit.id, hit.text]), [["a#0", "alpha again"]]);
});

Deno.test("LocalIndex drops a torn last record and keeps everything before it", async () => {
  const log = memoryIndexLog();
  await indexWith(corpus, log);
  const whole = encodeRecord({ namespace: "default", remove: ["a"], put: [] });
  log.bytes = new Uint8Array([...log.bytes, ...whole.subarray(0, whole.length - 3)]);
  const reread = new LocalIndex({ log });
  assert.equal(await reread.count(NS), 3);
});

Deno.test("LocalIndex checkpoints, and a restart reads the checkpoint plus the records after it", async () => {
  const log = memoryIndexLog(undefined, { checkpointAt: 20_000 });
  const index = new LocalIndex({ log });
  const version = (n: number) =>
    Array.from({ length: 50 }, (_, i) => chunk(`d${i}`, 0, `text ${n} of ${i}`, [1, n, i]));
  for (let n = 0; n < 12; n++) await index.replaceDocuments([], version(n), NS);
  await index.deleteDocument("d3", NS);
  assert.ok(log.checkpoints >= 2, `${log.checkpoints} checkpoints`);
  assert.ok(log.bytes.length > 0, "records after the last checkpoint");
  const reread = new LocalIndex({ log });
  assert.equal(await reread.count(NS), 49);
  for (const mode of ["dense", "sparse", "hybrid"] as const) {
    const probe = { ...query, text: "text 11 of 7", vector: [1, 11, 7], mode, topK: 5 };
    const before = await index.query(probe);
    const after = await reread.query(probe);
    assert.deepEqual(
      after.map((hit) => [hit.id, hit.text, hit.score]),
      before.map((hit) => [
        hit.id,
        hit.text,
        hit.score,
      ]),
    );
  }
  // The restored index takes writes like any other.
  await reread.replaceDocuments(["d7"], [chunk("d7", 0, "text twelve", [1, 12, 7])], NS);
  const hits = await reread.query({ ...query, text: "twelve", mode: "sparse", topK: 1 });
  assert.equal(hits[0]!.id, "d7#0");
});

Deno.test("LocalIndex refuses a log damaged before its end, and stays failed", async () => {
  const log = memoryIndexLog();
  await indexWith(corpus, log);
  await new LocalIndex({ log }).upsert([chunk("z", 0, "zeta", [0, 0, 1])], NS);
  log.bytes[20] = log.bytes[20]! ^ 0xff; // inside the first record, with another after it
  const index = new LocalIndex({ log });
  await assert.rejects(
    index.count(NS),
    (error: unknown) =>
      error instanceof SiftError && error.status === 500 && /unreadable/.test(error.message),
  );
  // It stays failed rather than appending to a log it could not read.
  await assert.rejects(index.upsert(corpus, NS), SiftError);
});

Deno.test("LocalIndex turns the library's damaged file into sift's index_damaged 503 with what to do", async () => {
  const why = "a frame fails its checksum";
  const log: IndexLog = {
    location: "/data/index.log",
    tailBytes: 0,
    checkpointBytes: 0,
    load: () => Promise.reject(new DamagedFile({ file: "/data/index.ckpt", offset: 96, why })),
    append: () => Promise.resolve(),
    checkpoint: () => Promise.resolve(),
  };
  const error = await new LocalIndex({ log }).count(NS).then(() => undefined, (e: unknown) => e);
  assert.ok(error instanceof IndexDamagedError, String(error));
  assert.equal(error.status, 503);
  assert.equal(error.file, "/data/index.ckpt");
  assert.equal(error.offset, 96);
  assert.match(error.message, /is damaged at byte 96 \(.+\); nothing was changed\. Restore /);
});

Deno.test("LocalIndex.flush() makes everything one checkpoint, with no records left to replay", async () => {
  const log = memoryIndexLog();
  const index = await indexWith(corpus, log);
  await index.deleteDocument("a", NS);
  assert.equal(log.checkpoints, 0);
  await index.flush();
  assert.equal(log.checkpoints, 1);
  assert.equal(log.bytes.length, 0);
  assert.equal(await new LocalIndex({ log }).count(NS), 2);
  await index.flush(); // nothing new: no second checkpoint
  assert.equal(log.checkpoints, 1);
});

Deno.test("a restart folds the log's tail onto the checkpoint: the same index as one applied record by record", async () => {
  const random = mulberry32(7);
  const pick = (n: number) => Math.floor(random() * n);
  for (let trial = 0; trial < 5; trial++) {
    const log = memoryIndexLog(undefined, { checkpointAt: 6_000 });
    const live = new LocalIndex({ log });
    const words = ["alpha", "beta", "gamma", "delta", "eps", "zeta", "eta", "theta"];
    for (let step = 0; step < 60; step++) {
      const doc = `d${pick(12)}`;
      const namespace = { namespace: pick(4) === 0 ? "other" : "default" };
      const chunks = Array.from(
        { length: 1 + pick(3) },
        (_, i) =>
          chunk(doc, i, `${words[pick(8)]} ${words[pick(8)]} ${step}`, [1, pick(5), pick(5)]),
      );
      const op = pick(4);
      if (op === 0) await live.deleteDocument(doc, namespace);
      else if (op === 1) await live.upsert(chunks, namespace);
      else await live.replaceDocuments([doc], chunks, namespace);
    }
    assert.ok(log.checkpoints > 0 && log.bytes.length > 0, "a checkpoint and a tail after it");
    const restarted = new LocalIndex({ log });
    for (const namespace of ["default", "other"]) {
      assert.equal(await restarted.count({ namespace }), await live.count({ namespace }));
      for (const word of words) {
        const probe = {
          text: word,
          vector: [1, 2, 3],
          topK: 50,
          namespace,
          mode: "hybrid" as const,
        };
        const hits = (await restarted.query(probe)).map((hit) => [hit.id, hit.text, hit.score]);
        assert.deepEqual(
          hits,
          (await live.query(probe)).map((hit) => [hit.id, hit.text, hit.score]),
        );
      }
    }
  }
});

import assert from "node:assert/strict";
import { assertNearlyEqual } from "./fixtures/nearly-equal.ts";
import { IndexDamagedError } from "./errors.ts";
import { FileIndexLog } from "./deno/file-index-log.ts";
import { EmbeddedIndex } from "./index.ts";
import { mulberry32 } from "./random.ts";
import { CODES_FROM_ROWS } from "./dense-vectors.ts";
import { NamespaceIndex } from "./namespace.ts";
import type { NamespaceSnapshot } from "./snapshot.ts";
import { withDirectory } from "./fixtures/temp-directory.ts";

/*
 * Directory format 3 (#30): ids, metadata and documents as columns with hash
 * tables, read at load without decoding. A format-2 checkpoint (ids and
 * metadata as JSON) still loads; damage in the new sections is reported
 * before anything from them is served.
 */

const FIXTURES = new URL("./fixtures/", import.meta.url).pathname;

type Hit = { id: string; score: number; text: string; metadata: Record<string, unknown> };
type Expected = {
  query: number[];
  dense: Hit[];
  filtered: Hit[];
  sparse: Hit[];
  documents: { dense: number; sparse: number };
  d7: { id: string; text: string; metadata: Record<string, unknown> }[];
};

function answers(checkpoint: Map<string, NamespaceSnapshot>, expected: Expected) {
  const dense = NamespaceIndex.restore(checkpoint.get("dense")!);
  const sparse = NamespaceIndex.restore(checkpoint.get("sparse")!);
  const hits = (index: NamespaceIndex, found: { id: string; score: number }[]) =>
    found.map(({ id, score }) => ({ id, score, ...index.hit(id) }));
  const query = Float32Array.from(expected.query);
  return {
    namespaces: { dense, sparse },
    found: {
      query: expected.query,
      dense: hits(dense, dense.dense(query, 5)),
      filtered: hits(dense, dense.dense(query, 3, { page: 2 })),
      sparse: hits(sparse, sparse.sparse("retrieval brûlée", 5)),
      documents: { dense: [...dense.documentIds()].length, sparse: sparse.size },
      d7: dense.documentChunks("d7"),
    },
  };
}

const directoryFormat = (bytes: Uint8Array) => {
  const length = new DataView(bytes.buffer).getUint32(bytes.length - 16, true);
  const json = new TextDecoder().decode(
    bytes.subarray(bytes.length - 16 - length, bytes.length - 16),
  );
  return JSON.parse(json) as {
    format: number;
    namespaces: { namespace: string; sections: Record<string, { at: number; bytes: number }> }[];
  };
};

Deno.test("a format-2 checkpoint (ids and metadata as JSON, written by the code before #30) loads, and its next checkpoint is format 3 with the same answers", () =>
  withDirectory("sift-ckpt3-", async (directory) => {
    const expected = JSON.parse(
      await Deno.readTextFile(`${FIXTURES}checkpoint-v2.json`),
    ) as Expected;
    await Deno.copyFile(`${FIXTURES}checkpoint-v2.ckpt`, `${directory}/index.ckpt`);
    assert.equal(directoryFormat(await Deno.readFile(`${directory}/index.ckpt`)).format, 2);
    const log = new FileIndexLog(`${directory}/index.log`);
    const loaded = await log.load();
    await loaded.verified;
    const first = answers(loaded.checkpoint!, expected);
    assertNearlyEqual(first.found, expected);

    const { dense, sparse } = first.namespaces;
    await log.checkpoint(new Map([["dense", dense.view()], ["sparse", sparse.view()]]));
    log.close();
    assert.equal(directoryFormat(await Deno.readFile(`${directory}/index.ckpt`)).format, 3);
    const reread = new FileIndexLog(`${directory}/index.log`);
    const again = await reread.load();
    await again.verified;
    assertNearlyEqual(answers(again.checkpoint!, expected).found, expected);
    reread.close();
  }));

/** A dense namespace with bit codes, written by `EmbeddedIndex` and flushed to a checkpoint. */
async function denseIndex(directory: string, count = CODES_FROM_ROWS + 100) {
  const random = mulberry32(4);
  const log = new FileIndexLog(`${directory}/index.log`);
  const index = new EmbeddedIndex({ log, checkpointMinBytes: 1 << 30 });
  const chunks = Array.from({ length: count }, (_, i) => ({
    id: `d${i >> 1}#${i & 1}`,
    text: `text ${i} ${i % 13 === 0 ? "thirteen" : "other"} é`,
    vector: Array.from({ length: 64 }, () => random() - 0.5),
    metadata: { doc_id: `d${i >> 1}`, chunk_index: i & 1, page: i % 5, note: `ñ ${i}` },
  }));
  await index.upsert(chunks, { namespace: "ns" });
  await index.flush();
  log.close();
  return chunks;
}

async function sectionOf(path: string, name: string) {
  const directory = directoryFormat(await Deno.readFile(path));
  assert.equal(directory.format, 3);
  return directory.namespaces.find((entry) => entry.namespace === "ns")!.sections[name]!;
}

async function flipByte(path: string, at: number) {
  const bytes = await Deno.readFile(path);
  bytes[at] = bytes[at]! ^ 0x10;
  await Deno.writeFile(path, bytes);
}

Deno.test("format 3: ids, documents and metadata come back from their columns, and writes after the load find them", () =>
  withDirectory("sift-ckpt3-", async (directory) => {
    const chunks = await denseIndex(directory);
    const index = new EmbeddedIndex({ log: new FileIndexLog(`${directory}/index.log`) });
    assert.equal(await index.count({ namespace: "ns" }), chunks.length);
    const [hit] = await index.query({
      namespace: "ns",
      mode: "dense",
      text: "",
      vector: chunks[85]!.vector,
      topK: 1,
    });
    assert.equal(hit!.id, "d42#1");
    assert.deepEqual(hit!.metadata, chunks[85]!.metadata);
    const first = await index.listDocuments({ namespace: "ns", limit: 3 });
    assert.deepEqual(first.documents.map((document) => [document.id, document.chunks]), [
      ["d0", 2],
      ["d1", 2],
      ["d10", 2],
    ]);
    const next = await index.listDocuments({ namespace: "ns", limit: 2, after: "d10" });
    assert.deepEqual(next.documents.map((document) => document.id), ["d100", "d1000"]);
    const filtered = await index.query({
      namespace: "ns",
      mode: "sparse",
      text: "thirteen",
      topK: 50,
      filter: { page: 3 },
    });
    assert.ok(filtered.length > 0);
    for (const found of filtered) assert.equal(found.metadata.page, 3);
    // Replacing a stored id, and deleting a stored document, after the load.
    await index.upsert([{ ...chunks[84]!, text: "replaced" }], { namespace: "ns" });
    assert.equal(await index.deleteDocument("d7", { namespace: "ns" }), 2);
    const d42 = await index.getDocument("d42", { namespace: "ns" });
    assert.deepEqual(d42.map((chunk) => [chunk.id, chunk.text]), [
      ["d42#0", "replaced"],
      ["d42#1", "text 85 other é"],
    ]);
    assert.deepEqual(await index.getDocument("d7", { namespace: "ns" }), []);
    assert.equal(await index.count({ namespace: "ns" }), chunks.length - 2);
  }));

Deno.test("format 3: a flipped byte in the id table stops the load, naming the file and the section", () =>
  withDirectory("sift-ckpt3-", async (directory) => {
    await denseIndex(directory);
    const path = `${directory}/index.ckpt`;
    const table = await sectionOf(path, "idTable");
    await flipByte(path, table.at + 100);
    const index = new EmbeddedIndex({ log: new FileIndexLog(`${directory}/index.log`) });
    const error = await index.count({ namespace: "ns" }).then(() => undefined, (e: unknown) => e);
    assert.ok(error instanceof IndexDamagedError, String(error));
    assert.equal(error.file, path);
    assert.equal(error.offset, table.at);
    assert.match(error.message, /idTable fails its checksum/);
  }));

Deno.test("format 3: a flipped byte in a chunk's metadata is reported when it is read, never served, and never copied into a new checkpoint", () =>
  withDirectory("sift-ckpt3-", async (directory) => {
    const chunks = await denseIndex(directory);
    const path = `${directory}/index.ckpt`;
    const metadata = await sectionOf(path, "metadata");
    const bytes = await Deno.readFile(path);
    const within = new TextDecoder().decode(
      bytes.subarray(metadata.at, metadata.at + metadata.bytes),
    ).indexOf('"ñ 85"');
    // The column is ASCII up to there but for each earlier "ñ" (2 bytes in UTF-8).
    const at = metadata.at + within + 85 + 2;
    await flipByte(path, at);
    const before = await Deno.readFile(path);
    const index = new EmbeddedIndex({ log: new FileIndexLog(`${directory}/index.log`) });
    assert.equal(await index.count({ namespace: "ns" }), chunks.length, "the load is fine");
    const error = await index.query({
      namespace: "ns",
      mode: "dense",
      text: "",
      vector: chunks[85]!.vector,
      topK: 1,
    }).then(() => undefined, (e: unknown) => e);
    assert.ok(error instanceof IndexDamagedError, String(error));
    assert.equal(error.file, path);
    assert.ok(error.offset <= at && error.offset > metadata.at, `${error.offset} vs ${at}`);
    assert.match(error.message, /stored metadata of slot 85 fails its checksum/);
    // A write makes a checkpoint due; writing it reads slot 85's metadata and must fail.
    await index.upsert([{
      ...chunks[0]!,
      id: "new#0",
      metadata: { doc_id: "new", chunk_index: 0 },
    }], {
      namespace: "ns",
    });
    const logged = console.error;
    console.error = () => {};
    try {
      await index.flush();
    } finally {
      console.error = logged;
    }
    assert.deepEqual(await Deno.readFile(path), before, "the damaged checkpoint stays as it was");
  }));

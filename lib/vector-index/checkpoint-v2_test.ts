import assert from "node:assert/strict";
import { assertNearlyEqual } from "./fixtures/nearly-equal.ts";
import { IndexDamagedError } from "./errors.ts";
import { FileIndexLog } from "./deno/file-index-log.ts";
import { EmbeddedIndex } from "./index.ts";
import { mulberry32 } from "./random.ts";
import { CODES_FROM_ROWS } from "./dense-vectors.ts";
import { readCheckpoint } from "./checkpoint.ts";
import { NamespaceIndex } from "./namespace.ts";
import { entryNames, withDirectory } from "./fixtures/temp-directory.ts";

const FIXTURES = new URL("./fixtures/", import.meta.url).pathname;

type Expected = {
  query: number[];
  dense: { id: string; score: number }[];
  sparse: { id: string; score: number }[];
};

/** What the fixture's namespaces answer, through the loaded snapshots. */
function answers(namespaces: Map<string, ReturnType<typeof NamespaceIndex.restore>>, e: Expected) {
  const dense = namespaces.get("dense")!;
  const sparse = namespaces.get("sparse")!;
  return {
    dense: dense.dense(Float32Array.from(e.query), 5),
    sparse: sparse.sparse("retrieval brûlée", 5),
    texts: [...sparse.documentIds()].sort().map((id) => sparse.documentChunks(id)[0]!.text),
  };
}

Deno.test("a format-1 checkpoint (written by the code before format 2) loads, and its next checkpoint is format 2 with the same answers", () =>
  withDirectory("sift-ckpt2-", async (directory) => {
    const expected = JSON.parse(
      await Deno.readTextFile(`${FIXTURES}checkpoint-v1.json`),
    ) as Expected;
    await Deno.copyFile(`${FIXTURES}checkpoint-v1.ckpt`, `${directory}/index.ckpt`);
    const log = new FileIndexLog(`${directory}/index.log`);
    const loaded = await log.load();
    const first = new Map(
      [...loaded.checkpoint!].map(([name, snapshot]) => [name, NamespaceIndex.restore(snapshot)]),
    );
    const before = answers(first, expected);
    assert.deepEqual(before.dense, expected.dense);
    assertNearlyEqual(before.sparse, expected.sparse);
    assert.deepEqual(before.texts, ["Crème brûlée — 焦糖 🍮", "plain ascii about retrieval"]);

    await log.checkpoint(new Map([...first].map(([name, index]) => [name, index.view()])));
    log.close();
    const head = new TextDecoder().decode(
      (await Deno.readFile(`${directory}/index.ckpt`)).slice(0, 8),
    );
    assert.equal(head, "SIFTCKP2");
    const reread = new FileIndexLog(`${directory}/index.log`);
    const again = await reread.load();
    const second = new Map(
      [...again.checkpoint!].map(([name, snapshot]) => [name, NamespaceIndex.restore(snapshot)]),
    );
    assert.deepEqual(answers(second, expected), before);
    reread.close();
  }));

/** A dense namespace past `CODES_FROM_ROWS` (bit codes too), through `EmbeddedIndex` and files. */
async function denseIndex(directory: string, count = CODES_FROM_ROWS + 100) {
  const random = mulberry32(3);
  const log = new FileIndexLog(`${directory}/index.log`);
  const index = new EmbeddedIndex({ log, checkpointMinBytes: 1 << 30 });
  const chunks = Array.from({ length: count }, (_, i) => ({
    id: `d${i}#0`,
    text: `text ${i} ${i % 13 === 0 ? "thirteen" : "other"} é`,
    vector: Array.from({ length: 64 }, () => random() - 0.5),
    metadata: { doc_id: `d${i}`, chunk_index: 0 },
  }));
  await index.upsert(chunks, { namespace: "ns" });
  await index.flush();
  log.close();
  return chunks;
}

Deno.test("format 2: rows, bit codes, texts and metadata come back; residuals and texts are read from the file on demand", () =>
  withDirectory("sift-ckpt2-", async (directory) => {
    const chunks = await denseIndex(directory);
    const query = chunks[42]!.vector;
    const log = new FileIndexLog(`${directory}/index.log`);
    const index = new EmbeddedIndex({ log });
    const [hit] = await index.query({
      namespace: "ns",
      mode: "dense",
      text: "",
      vector: query,
      topK: 1,
    });
    assert.equal(hit!.id, "d42#0");
    assert.ok(Math.abs(hit!.score - 1) < 1e-4, String(hit!.score));
    assert.equal(hit!.text, "text 42 other é");
    assert.deepEqual(hit!.metadata, { doc_id: "d42", chunk_index: 0 });
    const sparse = await index.query({
      namespace: "ns",
      mode: "sparse",
      text: "thirteen",
      topK: 3,
    });
    assert.equal(sparse.length, 3);
    for (const found of sparse) assert.match(found.text, /thirteen/);

    // Writes after the load go on; a new checkpoint keeps the loaded file aside while it is read.
    await index.upsert([{
      ...chunks[0]!,
      id: "new#0",
      metadata: { doc_id: "new", chunk_index: 0 },
    }], {
      namespace: "ns",
    });
    await index.flush();
    assert.ok(
      entryNames(directory).some((name) => name.endsWith(".kept")),
      entryNames(directory).join(),
    );
    const [again] = await index.query({
      namespace: "ns",
      mode: "dense",
      text: "",
      vector: query,
      topK: 1,
    });
    assert.equal(again!.text, "text 42 other é", "texts still read from the kept file");
    log.close();
    const next = new EmbeddedIndex({ log: new FileIndexLog(`${directory}/index.log`) });
    assert.equal(await next.count({ namespace: "ns" }), chunks.length + 1);
    assert.deepEqual(entryNames(directory), ["index.ckpt"], "the kept file goes at the next start");
    const [newest] = await next.query({
      namespace: "ns",
      mode: "dense",
      text: "",
      vector: query,
      topK: 2,
    });
    assert.equal(newest!.text, "text 42 other é");
  }));

/** The byte range of a section of the checkpoint at `path`, by its directory. */
async function sectionOf(path: string, namespace: string, name: string) {
  const bytes = await Deno.readFile(path);
  const view = new DataView(bytes.buffer);
  const length = view.getUint32(bytes.length - 16, true);
  const directory = JSON.parse(
    new TextDecoder().decode(bytes.subarray(bytes.length - 16 - length, bytes.length - 16)),
  ) as {
    namespaces: { namespace: string; sections: Record<string, { at: number; bytes: number }> }[];
  };
  return directory.namespaces.find((entry) => entry.namespace === namespace)!.sections[name]!;
}

async function flipByte(path: string, at: number) {
  const bytes = await Deno.readFile(path);
  bytes[at] = bytes[at]! ^ 0x10;
  await Deno.writeFile(path, bytes);
}

Deno.test("format 2: a flipped byte in a scanned section stops the load, naming the file and the section's byte", () =>
  withDirectory("sift-ckpt2-", async (directory) => {
    await denseIndex(directory);
    const path = `${directory}/index.ckpt`;
    const lengths = await sectionOf(path, "ns", "termSlots");
    await flipByte(path, lengths.at + 10);
    const index = new EmbeddedIndex({ log: new FileIndexLog(`${directory}/index.log`) });
    const error = await index.count({ namespace: "ns" }).then(() => undefined, (e: unknown) => e);
    assert.ok(error instanceof IndexDamagedError, String(error));
    assert.equal(error.file, path);
    assert.equal(error.offset, lengths.at);
    assert.match(error.message, /termSlots fails its checksum/);
  }));

Deno.test("format 2: a flipped byte in the int8 rows, checked after the load, fails every call from then on and is never checkpointed", () =>
  withDirectory("sift-ckpt2-", async (directory) => {
    await denseIndex(directory);
    const path = `${directory}/index.ckpt`;
    const rows = await sectionOf(path, "ns", "rowCodes");
    await flipByte(path, rows.at + 1000);
    const before = await Deno.readFile(path);
    const index = new EmbeddedIndex({ log: new FileIndexLog(`${directory}/index.log`) });
    await index.count({ namespace: "ns" }).catch(() => {}); // served, or already found
    const deadline = Date.now() + 60_000;
    while (index.status().status !== "failed" && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.equal(index.status().status, "failed");
    const error = await index.count({ namespace: "ns" }).then(() => undefined, (e: unknown) => e);
    assert.ok(error instanceof IndexDamagedError, String(error));
    assert.equal(error.file, path);
    assert.equal(error.offset, rows.at);
    assert.match(error.message, /rowCodes fails its checksum/);
    await index.flush().catch(() => {});
    assert.deepEqual(await Deno.readFile(path), before, "nothing written over it");
  }));

for (const [section, what] of [["residuals", "residual row"], ["texts", "text"]] as const) {
  Deno.test(`format 2: a flipped byte in a stored ${what} is reported when that ${what} is read, not served`, () =>
    withDirectory("sift-ckpt2-", async (directory) => {
      const chunks = await denseIndex(directory);
      const path = `${directory}/index.ckpt`;
      const stored = await sectionOf(path, "ns", section);
      // Slot 42's part of the section (rows are fixed-size; texts are found by their offsets).
      const rowBytes = stored.bytes / chunks.length;
      const at = section === "residuals"
        ? stored.at + 42 * rowBytes + 3
        : stored.at + (await Deno.readFile(path)).subarray(stored.at, stored.at + stored.bytes)
          .findIndex((_, i, bytes) =>
            new TextDecoder().decode(bytes.subarray(i, i + 8)) === "text 42 "
          ) +
          5;
      await flipByte(path, at);
      const index = new EmbeddedIndex({ log: new FileIndexLog(`${directory}/index.log`) });
      assert.equal(
        await index.count({ namespace: "ns" }),
        chunks.length,
        "the load itself is fine",
      );
      const error = await index.query({
        namespace: "ns",
        mode: "dense",
        text: "",
        vector: chunks[42]!.vector,
        topK: 1,
      }).then(() => undefined, (e: unknown) => e);
      assert.ok(error instanceof IndexDamagedError, String(error));
      assert.equal(error.file, path);
      assert.ok(error.offset <= at && error.offset > stored.at, `${error.offset} vs ${at}`);
      assert.match(error.message, new RegExp(`stored ${what} of slot 42 fails its checksum`));
    }));
}

Deno.test("readCheckpoint reads format 2 from bytes as well (tests read generations with it)", () =>
  withDirectory("sift-ckpt2-", async (directory) => {
    await denseIndex(directory, 50);
    const { generation, namespaces } = readCheckpoint(
      await Deno.readFile(`${directory}/index.ckpt`),
    );
    assert.equal(generation, 1);
    const index = NamespaceIndex.restore(namespaces.get("ns")!);
    assert.equal(index.size, 50);
    assert.equal(index.documentChunks("d7")[0]!.text, "text 7 other é");
  }));

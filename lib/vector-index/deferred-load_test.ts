import assert from "node:assert/strict";
import {
  checkFill,
  checkpointSections,
  FOOTER_BYTES,
  parseDirectory,
  planNamespace,
  readCheckpointV2,
  readFooter,
} from "./checkpoint-v2.ts";
import { BitCodes } from "./bit-codes.ts";
import { CODES_FROM_ROWS } from "./dense-vectors.ts";
import { FileIndexLog } from "./deno/file-index-log.ts";
import { IndexDamagedError } from "./errors.ts";
import { EmbeddedIndex } from "./index.ts";
import { NamespaceIndex } from "./namespace.ts";
import { prepareChunk } from "./prepared.ts";
import { mulberry32 } from "./random.ts";
import { bytesAccess } from "./stored-rows.ts";
import type { IndexedChunk } from "./types.ts";
import { withDirectory } from "./fixtures/temp-directory.ts";

/*
 * A load may read the large sections a search can do without for a while
 * (int8 rows, bit codes and their prefixes, term postings, metadata,
 * documents) after the index serves. Until they are in, searches read what
 * they need from the file by position; these tests hold the sections back
 * (planned with `deferFromBytes: 0`, delivered by hand) and check that every
 * answer is the one the fully loaded index gives, that a damaged term is
 * reported before it is scored, and that writes and listings wait.
 */

const WIDTH = 768; // bit codes of 768 bits: 128 bytes a row, with prefixes kept apart
const WORDS = ["alpha", "beta", "gamma", "delta", "thirteen", "rare", "common", "zeta"];

function chunks(count: number, seed = 7): IndexedChunk[] {
  const random = mulberry32(seed);
  const centres = Array.from(
    { length: 8 },
    () => Array.from({ length: WIDTH }, () => random() - 0.5),
  );
  return Array.from({ length: count }, (_, i) => {
    const centre = centres[i % centres.length]!;
    return {
      id: `doc-${Math.floor(i / 3)}#${i % 3}`,
      text: `common ${WORDS[i % WORDS.length]} ${i % 13 === 0 ? "thirteen" : "other"} ` +
        `${i % 97 === 0 ? "rare" : ""} chunk ${i}`,
      vector: centre.map((value) => value + (random() - 0.5) * 0.8),
      metadata: { doc_id: `doc-${Math.floor(i / 3)}`, chunk_index: i % 3, page: i % 50 },
    };
  });
}

function checkpointBytes(index: NamespaceIndex): Uint8Array {
  const parts = [...checkpointSections(new Map([["ns", index.view()]]), 1)];
  const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) bytes.set(part, (at += part.length) - part.length);
  return bytes;
}

/** The namespace planned with every large section held back; `deliver` hands them over. */
function deferred(bytes: Uint8Array) {
  const footer = readFooter(bytes.subarray(bytes.length - FOOTER_BYTES), bytes.length);
  const directory = parseDirectory(
    bytes.subarray(footer.at, footer.at + footer.bytes),
    footer.crc,
    footer.at,
  );
  const plan = planNamespace(directory.namespaces[0]!, bytesAccess(bytes), { deferFromBytes: 0 });
  const held = plan.fills.filter((fill) => fill.background);
  for (const fill of plan.fills) {
    if (fill.background) continue;
    fill.into.set(bytes.subarray(fill.section.at, fill.section.at + fill.section.bytes));
  }
  const index = NamespaceIndex.restore(plan.finish());
  return {
    index,
    held: held.map((fill) => fill.name),
    deliver() {
      for (const fill of held) {
        fill.into.set(bytes.subarray(fill.section.at, fill.section.at + fill.section.bytes));
        checkFill(fill);
        fill.background!();
      }
    },
  };
}

function answers(index: NamespaceIndex, queries: Float32Array[]) {
  return {
    dense: queries.map((query) => index.dense(query, 10)),
    // A filter few chunks pass: the candidates hold too few, and every row is scored.
    filteredDense: queries.slice(0, 2).map((query) =>
      index.dense(query, 10, { doc_id: { in: ["doc-500", "doc-2000"] } })
    ),
    sparse: ["thirteen common", "rare alpha", "gamma chunk 42", "zeta beta delta"]
      .map((text) => index.sparse(text, 10)),
    filteredSparse: index.sparse("common thirteen", 10, { page: { in: [0, 13, 26] } }),
    hits: ["doc-0#0", "doc-7#2", "doc-100#1"].map((id) => index.hit(id)),
  };
}

const built = (() => {
  let made: { index: NamespaceIndex; queries: Float32Array[] } | undefined;
  return () => {
    if (made) return made;
    const all = chunks(CODES_FROM_ROWS + 300);
    const random = mulberry32(11);
    const queries = Array.from(
      { length: 6 },
      (_, q) => Float32Array.from(all[q * 101]!.vector, (value) => value + (random() - 0.5) * 0.3),
    );
    made = { index: NamespaceIndex.build(all.map(prepareChunk)), queries };
    return made;
  };
})();

Deno.test("a load that reads rows, codes, postings, metadata and documents after serving answers every search as the whole load does, before and after they are in", () => {
  const { index, queries } = built();
  const bytes = checkpointBytes(index);
  const whole = NamespaceIndex.restore(readCheckpointV2(bytes).namespaces.get("ns")!);
  const expected = answers(whole, queries);
  assert.deepEqual(answers(index, queries), expected, "the checkpoint answers as the index did");

  const lazy = deferred(bytes);
  assert.deepEqual(
    lazy.held.sort(),
    [
      "bitCodes",
      "bitPrefixes",
      "documentOffsets",
      "documentSlotOffsets",
      "documentSlots",
      "documentTable",
      "documents",
      "metadata",
      "rowCodes",
      "termSlots",
      "termValues",
    ],
  );
  assert.deepEqual(answers(lazy.index, queries), expected, "served from the file");
  assert.throws(() => [...lazy.index.documentIds()], /still reads them in/);
  lazy.deliver();
  assert.deepEqual(answers(lazy.index, queries), expected, "served from memory");
  assert.deepEqual([...lazy.index.documentIds()].sort(), [...whole.documentIds()].sort());
});

Deno.test("a damaged term read by position before its section is in is reported, never scored", () => {
  const { index } = built();
  const bytes = checkpointBytes(index);
  const footer = readFooter(bytes.subarray(bytes.length - FOOTER_BYTES), bytes.length);
  const entry = parseDirectory(
    bytes.subarray(footer.at, footer.at + footer.bytes),
    footer.crc,
    footer.at,
  ).namespaces[0]!;
  // Term "thirteen"'s first slot, found through the terms and their offsets.
  const terms = new TextDecoder().decode(
    bytes.subarray(
      entry.sections.terms!.at,
      entry.sections.terms!.at + entry.sections.terms!.bytes,
    ),
  ).split(" ");
  const number = terms.indexOf("thirteen");
  const offsets = new Uint32Array(
    bytes.slice(
      entry.sections.termOffsets!.at,
      entry.sections.termOffsets!.at + (terms.length + 1) * 4,
    )
      .buffer,
  );
  const damaged = bytes.slice();
  damaged[entry.sections.termSlots!.at + offsets[number]! * 4 + 1]! ^= 0x40;

  const lazy = deferred(damaged);
  assert.ok(lazy.index.sparse("alpha", 5).length > 0, "other terms are served");
  assert.throws(
    () => lazy.index.sparse("thirteen", 5),
    (error: unknown) =>
      error instanceof IndexDamagedError &&
      error.offset === entry.sections.termSlots!.at + offsets[number]! * 4 &&
      /term \d+ fail their checksum/.test(error.message),
  );
  assert.throws(() => lazy.deliver(), /termSlots fails its checksum/);
});

const open = (directory: string) =>
  new EmbeddedIndex({
    log: new FileIndexLog(`${directory}/index.log`, { deferFromBytes: 0 }),
    checkpointMinBytes: 1 << 30,
  });

Deno.test("through files: a write and a listing made as the index starts serving wait for the sections still being read, and a log to replay is applied over all of them", () =>
  withDirectory("vector-index-deferred-", async (directory) => {
    const all = chunks(CODES_FROM_ROWS + 50, 9);
    const first = open(directory);
    await first.upsert(all, { namespace: "ns" });
    await first.flush();
    const query = {
      namespace: "ns",
      mode: "hybrid" as const,
      text: "thirteen common",
      vector: all[5]!.vector,
      topK: 10,
    };
    const before = await first.query(query);

    const second = open(directory);
    assert.deepEqual(await second.query(query), before);
    const replaced = { ...all[5]!, text: "replaced thirteen thirteen", vector: all[6]!.vector };
    await second.upsert([replaced], { namespace: "ns" }); // waits for the rest of the load
    assert.deepEqual(second.status(), { status: "ok" }, "no longer warming");
    const listed = await second.listDocuments({ namespace: "ns", limit: 3 });
    assert.deepEqual(listed.documents.map((document) => document.id), [
      "doc-0",
      "doc-1",
      "doc-10",
    ]);
    const after = await second.query(query);
    assert.ok(after.some((hit) => hit.id === replaced.id && hit.text === replaced.text));

    // The checkpoint is the first one; the upsert is in the log: a restart replays it.
    const third = open(directory);
    assert.deepEqual(await third.query(query), after);
    assert.equal(await third.count({ namespace: "ns" }), all.length);
    await third.flush(); // checkpoints the replayed tail; nothing is left running after the test
  }));

Deno.test("bit codes streamed from the file while a load reads them in pick what the codes in memory pick", async () => {
  const random = mulberry32(13);
  const rows = 20_000; // more than one window of 768-bit codes
  const mean = new Float32Array(WIDTH);
  const vector = () => {
    const values = Float32Array.from({ length: WIDTH }, () => random() - 0.5);
    const norm = Math.hypot(...values);
    return values.map((value) => value / norm);
  };
  const codes = new BitCodes(mean, rows);
  for (let slot = 0; slot < rows; slot++) codes.set(slot, vector());
  const stored = codes.codes(0, rows).slice();
  const later = new BitCodes(mean, rows);
  later.loadInto(rows);
  later.loadPrefixesInto(rows).set(codes.prefixes(0, rows));
  later.adopt(rows, true);
  const pending = {
    done: false,
    read: (at: number, into: Uint8Array) => into.set(stored.subarray(at, at + into.length)),
  };
  later.codesLater(rows, pending);
  const queries = Array.from({ length: 5 }, vector);
  for (const query of queries) {
    assert.deepEqual([...later.nearest(query, rows, 300)], [...codes.nearest(query, rows, 300)]);
  }
  assert.throws(() => later.codes(0, 1), /still reads them in/);
  // Once in, the codes' middle slices are derived behind the searches; then the passes over
  // prefix, middle slice and full codes (30 wanted of 20,000 rows) pick what they do in memory.
  later.loadInto(rows).set(stored);
  pending.done = true;
  await later.derivePending();
  for (const query of queries) {
    assert.deepEqual([...later.nearest(query, rows, 30)], [...codes.nearest(query, rows, 30)]);
  }
});

Deno.test("through files: damage in a section read after serving is found by its check, and from then on every call fails with it", () =>
  withDirectory("vector-index-deferred-", async (directory) => {
    const first = open(directory);
    await first.upsert(chunks(CODES_FROM_ROWS + 50, 4), { namespace: "ns" });
    await first.flush();
    const path = `${directory}/index.ckpt`;
    const bytes = await Deno.readFile(path);
    const footer = readFooter(bytes.subarray(bytes.length - FOOTER_BYTES), bytes.length);
    const rows = parseDirectory(
      bytes.subarray(footer.at, footer.at + footer.bytes),
      footer.crc,
      footer.at,
    ).namespaces[0]!.sections.rowCodes!;
    bytes[rows.at + 5000]! ^= 0x10;
    await Deno.writeFile(path, bytes);

    const second = open(directory);
    await second.count({ namespace: "ns" }); // serves at once: the rows are read afterwards
    const deadline = Date.now() + 60_000;
    while (second.status().status !== "failed" && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const error = await second.count({ namespace: "ns" }).then(() => undefined, (e) => e);
    assert.ok(error instanceof IndexDamagedError, String(error));
    assert.equal(error.file, path);
    assert.equal(error.offset, rows.at);
    assert.match(error.message, /rowCodes fails its checksum/);
    await assert.rejects(() => second.flush(), IndexDamagedError);
    assert.deepEqual(await Deno.readFile(path), bytes, "nothing written over it");
  }));

/** Chunks in the postings layout: 256 dimensions, a few nonzero each (as hashed embeddings are). */
function sparseVectorChunks(count: number): IndexedChunk[] {
  const random = mulberry32(5);
  return Array.from({ length: count }, (_, i) => {
    const vector = new Array(256).fill(0);
    for (let k = 0; k < 6; k++) vector[Math.floor(random() * 256)] = random() + 0.1;
    return {
      id: `doc-${i}#0`,
      text: `common ${WORDS[i % WORDS.length]} chunk ${i}`,
      vector,
      metadata: { doc_id: `doc-${i}`, chunk_index: 0 },
    };
  });
}

function sparseVectorAnswers(index: NamespaceIndex, queries: Float32Array[]) {
  return {
    dense: queries.map((query) => index.dense(query, 10)),
    hybridSparse: index.sparse("common alpha", 10),
  };
}

Deno.test("in the postings layout, a load that reads the dimension postings after serving answers every dense search as the whole load does", () => {
  const all = sparseVectorChunks(2000);
  const index = NamespaceIndex.build(all.map(prepareChunk));
  const queries = [0, 7, 500, 1999].map((i) => Float32Array.from(all[i]!.vector));
  const bytes = checkpointBytes(index);
  const whole = NamespaceIndex.restore(readCheckpointV2(bytes).namespaces.get("ns")!);
  const expected = sparseVectorAnswers(whole, queries);
  assert.deepEqual(sparseVectorAnswers(index, queries), expected);
  const lazy = deferred(bytes);
  assert.ok(lazy.held.includes("dimSlots") && lazy.held.includes("dimValues"), `${lazy.held}`);
  assert.deepEqual(sparseVectorAnswers(lazy.index, queries), expected, "served from the file");
  lazy.deliver();
  assert.deepEqual(sparseVectorAnswers(lazy.index, queries), expected, "served from memory");
});

Deno.test("a damaged dimension posting read by position before its section is in is reported, never scored", () => {
  const all = sparseVectorChunks(2000);
  const bytes = checkpointBytes(NamespaceIndex.build(all.map(prepareChunk)));
  const footer = readFooter(bytes.subarray(bytes.length - FOOTER_BYTES), bytes.length);
  const entry = parseDirectory(
    bytes.subarray(footer.at, footer.at + footer.bytes),
    footer.crc,
    footer.at,
  ).namespaces[0]!;
  const dim = all[0]!.vector.findIndex((value) => value !== 0);
  const offsets = new Uint32Array(
    bytes.slice(entry.sections.dimOffsets!.at, entry.sections.dimOffsets!.at + 257 * 4).buffer,
  );
  const damaged = bytes.slice();
  const at = entry.sections.dimSlots!.at + offsets[dim]! * 4;
  damaged[at + 1]! ^= 0x40;

  const lazy = deferred(damaged);
  const other = new Float32Array(256);
  other[(dim + 1) % 256] = 1;
  lazy.index.dense(other, 5); // another dimension is served
  const query = new Float32Array(256);
  query[dim] = 1;
  assert.throws(
    () => lazy.index.dense(query, 5),
    (error: unknown) =>
      error instanceof IndexDamagedError && error.offset === at &&
      /dimension \d+ fail their checksum/.test(error.message),
  );
  assert.throws(() => lazy.deliver(), /dimSlots fails its checksum/);
});

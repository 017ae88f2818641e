/**
 * `linesToPiece`, the work of `ingest --bulk`'s workers, called in this
 * thread: a document given twice in one piece ends as its last line says,
 * in the piece's record, in the index it is applied to and in a replay of
 * the log that holds it.
 */
import assert from "node:assert/strict";
import { EmbeddedIndex, readBulkPiece } from "../../lib/vector-index/mod.ts";
import { linesToPiece } from "../../scripts/bulk-lines.ts";
import { memoryIndexLog } from "../../lib/vector-index/testing.ts";

const NS = { namespace: "default" };
/** Three chunks at the default 400-token windows (overlap 50). */
const LONG = Array.from({ length: 1000 }, (_, i) => `word${i % 37}`).join(" ");
/** The offline embedding's width: a line's own vector must match it to share a namespace. */
const OWN_VECTOR = Array.from({ length: 2048 }, (_, i) => (i === 0 ? 1 : 0));

function piece(lines: object[]) {
  const bytes = new TextEncoder().encode(lines.map((line) => JSON.stringify(line)).join("\n"));
  return linesToPiece({ bytes, path: "lines.jsonl", namespace: NS.namespace });
}

/** The piece's record: the chunk ids and texts it puts for `docId`. */
function putOf(frame: Uint8Array, docId: string): [string, string][] {
  return readBulkPiece({ frame }).put
    .filter((chunk) => chunk.metadata.doc_id === docId)
    .map((chunk) => [chunk.id, chunk.text.slice(0, 40)]);
}

const stored = async (index: EmbeddedIndex, docId: string) =>
  (await index.getDocument(docId, NS)).map((chunk) => [chunk.id, chunk.text.slice(0, 40)]);

Deno.test("linesToPiece: a document's later line in the piece replaces its earlier line whole", async () => {
  const output = await piece([
    { id: "x", text: LONG },
    { id: "y", text: "between them" },
    { id: "x", text: "the short version" },
  ]);
  assert.deepEqual(putOf(output.frame, "x"), [["x#0", "the short version"]]);
  assert.deepEqual(putOf(output.frame, "y"), [["y#0", "between them"]]);
  assert.equal(output.lines, 3);
  assert.equal(output.chunks, 2);
  // Onto an index that holds x's three chunks; and after a crash, from the log: the
  // record on the checkpoint that has x's three chunks, and both records replayed.
  const first = await piece([{ id: "x", text: LONG }]);
  const log = memoryIndexLog();
  const index = new EmbeddedIndex({ log });
  await index.bulkUpsert([first]);
  assert.equal((await index.getDocument("x", NS)).length, 3);
  const onCheckpoint = memoryIndexLog(output.frame);
  onCheckpoint.checkpointed = log.checkpointed;
  await index.bulkUpsert([output]);
  const replayed = memoryIndexLog(new Uint8Array([...first.frame, ...output.frame]));
  for (
    const after of [
      index,
      new EmbeddedIndex({ log: onCheckpoint }),
      new EmbeddedIndex({ log: replayed }),
    ]
  ) {
    assert.deepEqual(await stored(after, "x"), [["x#0", "the short version"]]);
    assert.equal(await after.count(NS), 2);
  }
});

Deno.test("linesToPiece: a line with its own vector and a line to embed replace each other in line order", async () => {
  const ownLast = await piece([
    { id: "x", text: LONG },
    { id: "x", text: "given its vector", vector: OWN_VECTOR },
  ]);
  assert.deepEqual(putOf(ownLast.frame, "x"), [["x#0", "given its vector"]]);
  const embeddedLast = await piece([
    { id: "x", text: "given its vector", vector: OWN_VECTOR },
    { id: "x", text: LONG },
  ]);
  assert.deepEqual(putOf(embeddedLast.frame, "x").map(([id]) => id), ["x#0", "x#1", "x#2"]);
  assert.ok(putOf(embeddedLast.frame, "x").every(([, text]) => text.startsWith("word")));
});

/**
 * The library's public surface is deliberate: its two doors export these
 * values (types aside) and no others. A new export is a decision, listed in
 * README.md ("What each door exports") with why it is public; this test
 * fails until both change together.
 */
import assert from "node:assert/strict";
import * as neutral from "./mod.ts";
import * as deno from "./deno/mod.ts";
import * as testing from "./testing.ts";

Deno.test("mod.ts exports the runtime-neutral surface, and nothing else", () => {
  assert.deepEqual(Object.keys(neutral).sort(), [
    "DEFAULT_NAMESPACE",
    "DEFAULT_RRF_K",
    "EmbeddedIndex",
    "IndexDamagedError",
    "IndexInputError",
    "IndexUnreadableError",
    "STOP_WORDS",
    "analyze",
    "checkpointFrames",
    "decodeDocumentCursor",
    "decodeRecords",
    "dotKernelName",
    "encodeDocumentCursor",
    "encodeRecord",
    "matchesFilter",
    "mulberry32",
    "prepareBulkPiece",
    "readBulkPiece",
    "readCheckpoint",
    "reciprocalRankFusion",
    "searchableText",
    "stem",
    "words",
  ]);
});

Deno.test("deno/mod.ts adds the file log, openIndex and the worker pool to mod.ts", () => {
  for (const name of Object.keys(neutral)) assert.ok(name in deno, `${name} re-exported`);
  assert.deepEqual(Object.keys(deno).filter((name) => !(name in neutral)).sort(), [
    "FileIndexLog",
    "PoolWorkerError",
    "mapInWorkers",
    "openIndex",
    "serveInWorker",
  ]);
});

Deno.test("testing.ts exports the test doubles and references, and nothing else", () => {
  assert.deepEqual(Object.keys(testing).sort(), ["OkapiBm25", "denseEmbedder", "memoryIndexLog"]);
});

import assert from "node:assert/strict";
import { prepareChunk } from "./prepared.ts";

Deno.test("a prepared chunk keeps only the nonzero dimensions, normalized", () => {
  const prepared = prepareChunk({
    id: "p#0",
    text: "models modelling",
    vector: [3, 0, 4],
    metadata: { doc_id: "p", chunk_index: 0 },
  });
  assert.deepEqual([...prepared.dims], [0, 2]);
  assert.deepEqual([...prepared.values].map((value) => value.toFixed(2)), ["0.60", "0.80"]);
  assert.deepEqual(prepared.terms, ["model"]);
  assert.deepEqual([...prepared.counts], [2]);
});

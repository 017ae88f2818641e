import assert from "node:assert/strict";
import { batchDocuments } from "../../scripts/documents.ts";

const ids = (batches: { id?: string | undefined; text: string }[][]) =>
  batches.map((batch) => batch.map((document) => document.id ?? document.text));

Deno.test("batchDocuments: a document given again starts the next request, so its last line replaces it", () => {
  const documents = [
    { id: "a", text: "first a" },
    { id: "b", text: "b" },
    { id: "a", text: "second a" },
    { id: "c", text: "c" },
    { text: "no id" },
    { text: "no id" },
  ];
  assert.deepEqual(ids(batchDocuments(documents)), [["a", "b"], ["a", "c", "no id"], ["no id"]]);
});

Deno.test("batchDocuments: requests stay under the count and byte limits", () => {
  const documents = Array.from({ length: 5 }, (_, i) => ({ id: `d${i}`, text: "x".repeat(100) }));
  assert.deepEqual(
    ids(batchDocuments(documents, { documents: 2, bytes: 1_000_000 })),
    [["d0", "d1"], ["d2", "d3"], ["d4"]],
  );
  assert.equal(batchDocuments(documents, { documents: 100, bytes: 200 }).length, 5); // about 120 bytes each
});

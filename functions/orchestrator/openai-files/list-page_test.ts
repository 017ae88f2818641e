import assert from "node:assert/strict";
import { pageOfIds } from "./list-page.ts";

const IDS = ["a", "b", "c", "d", "e"];

Deno.test("pageOfIds() pages newest first by default, and from after or before a cursor", () => {
  assert.deepEqual(pageOfIds(IDS, { limit: 2, order: "desc" }), { ids: ["e", "d"], hasMore: true });
  assert.deepEqual(pageOfIds(IDS, { limit: 2, order: "desc", after: "d" }), {
    ids: ["c", "b"],
    hasMore: true,
  });
  assert.deepEqual(pageOfIds(IDS, { limit: 2, order: "asc", after: "c" }), {
    ids: ["d", "e"],
    hasMore: false,
  });
  assert.deepEqual(pageOfIds(IDS, { limit: 2, order: "asc", before: "d" }), {
    ids: ["b", "c"],
    hasMore: true,
  });
  // A cursor whose record is gone still pages on from where it stood.
  assert.deepEqual(pageOfIds(IDS, { limit: 5, order: "asc", after: "bb" }).ids, ["c", "d", "e"]);
});

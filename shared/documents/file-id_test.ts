import assert from "node:assert/strict";
import { fileDocumentId, pathDocumentId, sharedIds } from "./file-id.ts";
import { documentIdSchema } from "../schemas.ts";

Deno.test("fileDocumentId() is a file's name without its extension, other characters as '-'", () => {
  assert.equal(fileDocumentId("Tide Tables.pdf"), "Tide-Tables");
  assert.equal(fileDocumentId("README"), "README");
  assert.equal(fileDocumentId("notes/harbour.md"), "harbour");
  assert.equal(fileDocumentId(".."), "document");
});

Deno.test("pathDocumentId() keeps a folder's path and every extension, so README and README.md stay two", () => {
  assert.equal(pathDocumentId("alpha/README"), "alpha/README");
  assert.equal(pathDocumentId("alpha/README.md"), "alpha/README.md");
  assert.equal(pathDocumentId("c/changelog.Debian.gz"), "c/changelog.Debian.gz");
  assert.equal(pathDocumentId("my notes/Tide Tables.pdf"), "my-notes/Tide-Tables.pdf");
  assert.equal(pathDocumentId("win\\dir\\a.txt"), "win/dir/a.txt");
  const long = pathDocumentId(`${"d".repeat(150)}/${"e".repeat(100)}`);
  assert.equal(long.length, 200);
});

Deno.test("pathDocumentId() gives ids documentIdSchema takes, even from odd names", () => {
  for (const path of ["a/b", "../x", "a/./b", "...", "a/ /b", `${"x".repeat(199)}/.y`, "ü/ß.md"]) {
    const id = pathDocumentId(path);
    assert.ok(documentIdSchema.safeParse(id).success, `${path} → ${id}`);
  }
});

Deno.test("documentIdSchema takes '/' between parts, and refuses empty, '.' and '..' parts", () => {
  for (const id of ["alpha/README", "a:b/c-d.e_f", "x"]) {
    assert.ok(documentIdSchema.safeParse(id).success, id);
  }
  for (const id of ["/a", "a/", "a//b", "a/../b", "./a", "..", "a b", "a#0", "x".repeat(201)]) {
    assert.ok(!documentIdSchema.safeParse(id).success, id);
  }
});

Deno.test("sharedIds() lists each id more than one item has, with all of them", () => {
  const items = [
    { id: "README", path: "a/README" },
    { id: "x", path: "x" },
    { id: "README", path: "b/README" },
    { id: "README", path: "c/README" },
  ];
  assert.deepEqual(sharedIds(items), [["README", [items[0], items[2], items[3]]]]);
  assert.deepEqual(sharedIds(items.slice(0, 2)), []);
});

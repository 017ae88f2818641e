/**
 * Text no index can keep alike (a NUL, a lone surrogate) is the caller's
 * mistake at the door, on the embedded index as on Postgres
 * (tests/postgres/bad_text_test.ts); a parsed file's NULs are dropped instead.
 */
import assert from "node:assert/strict";
import { makeDocx, paragraph } from "../helpers/docx.ts";
import { upload, uploadApp } from "../helpers/documents.ts";
import { assertBadTextRefused } from "./bad-text-cases.ts";
import { testApp } from "./helpers.ts";

Deno.test("a NUL or a lone surrogate in text, title, metadata or a filter is a 400 naming the field, and nothing is stored", async () => {
  const { post } = testApp();
  await assertBadTextRefused(post);
  const listed = await (await post("/v1/search", { query: "harbour", mode: "sparse" })).json();
  assert.deepEqual(listed.results, []);
  // The same document without them is stored.
  const fine = await post("/v1/documents", {
    documents: [{ id: "harbour", text: "The harbour opens at dawn 😀.", title: "Kiel" }],
  });
  assert.equal(fine.status, 201, await fine.text());
});

Deno.test("an uploaded file's NULs are dropped, not refused: a broken font's U+0000 keeps no file out", async () => {
  const { app, env } = uploadApp();
  const docx = makeDocx(
    paragraph("Tide\u0000 tables", "Title") + paragraph("The lock\u0000 opens at dawn."),
  );
  const response = await upload(app, env, [{ name: "tides\u0000.docx", bytes: docx }]);
  assert.equal(response.status, 201, await response.clone().text());
  const stored = await (await app.request("/v1/documents/tides", {}, env)).json() as {
    title: string;
    source: string;
    data: { text: string }[];
  };
  assert.equal(stored.title, "Tide tables");
  assert.equal(stored.source, "tides.docx");
  assert.equal(stored.data[0]?.text, "Tide tables\n\nThe lock opens at dawn.");
});

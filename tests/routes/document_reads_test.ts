import assert from "node:assert/strict";
import { type ErrorBody, testApp } from "./helpers.ts";

type ListBody = {
  object: "list";
  namespace: string;
  data: { id: string; title?: string; chunks: number; ingested_at?: string }[];
  next_cursor: string | null;
};

const FIRST = "First paragraph about glaciers, ice and the slow flow of frozen water.";
const SECOND = "Second paragraph about moraines, the rocks a glacier leaves behind.";

Deno.test("GET /v1/documents pages through a namespace's documents with next_cursor", async () => {
  const { app, env, post } = testApp();
  const documents = Array.from({ length: 5 }, (_, n) => ({
    id: `doc-${n}`,
    title: `Doc ${n}`,
    text: `Text number ${n} about glaciers.`,
  }));
  assert.equal((await post("/v1/documents", { documents, namespace: "notes" })).status, 201);
  const seen: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const query: string = `namespace=notes&limit=2${cursor ? `&cursor=${cursor}` : ""}`;
    const response = await app.request(`/v1/documents?${query}`, {}, env);
    assert.equal(response.status, 200);
    const body: ListBody = await response.json();
    assert.equal(body.object, "list");
    assert.equal(body.namespace, "notes");
    assert.ok(body.data.length <= 2);
    seen.push(...body.data.map((document) => document.id));
    cursor = body.next_cursor;
    pages++;
  } while (cursor && pages < 10);
  assert.deepEqual(seen, documents.map((document) => document.id));
  const all: ListBody = await (await app.request("/v1/documents?namespace=notes", {}, env)).json();
  assert.equal(all.data[0]!.title, "Doc 0");
  assert.equal(all.data[0]!.chunks, 1);
  assert.ok(!Number.isNaN(Date.parse(all.data[0]!.ingested_at!)));
  const empty: ListBody = await (await app.request("/v1/documents", {}, env)).json();
  assert.deepEqual(empty, { object: "list", namespace: "default", data: [], next_cursor: null });
});

Deno.test("GET /v1/documents/:id returns the document with its chunks' text and metadata", async () => {
  const { app, env, post } = testApp();
  await post("/v1/documents", {
    documents: [{ id: "glaciers", title: "Glaciers", text: `${FIRST}\n\n${SECOND}` }],
    chunking: { size: 16, overlap: 0 },
  });
  const response = await app.request("/v1/documents/glaciers", {}, env);
  assert.equal(response.status, 200);
  const body = await response.json();
  assert.equal(body.id, "glaciers");
  assert.equal(body.title, "Glaciers");
  assert.equal(body.chunks, 2);
  assert.deepEqual(body.data.map((chunk: { id: string; text: string }) => [chunk.id, chunk.text]), [
    ["glaciers#0", FIRST],
    ["glaciers#1", SECOND],
  ]);
  assert.equal(body.data[1].metadata.chunk_index, 1);
  const missing = await app.request("/v1/documents/nope", {}, env);
  assert.equal(missing.status, 404);
  const elsewhere = await app.request("/v1/documents/glaciers?namespace=other", {}, env);
  assert.equal(elsewhere.status, 404);
});

Deno.test("GET /v1/documents answers 400 naming an unknown parameter, a bad limit or a bad cursor", async () => {
  const { app, env } = testApp();
  const cases: [string, RegExp][] = [
    ["/v1/documents?namspace=x", /namspace/],
    ["/v1/documents?limit=0", /^limit: /],
    ["/v1/documents?limit=1000", /^limit: /],
    ["/v1/documents?limit=ten", /^limit: /],
    ["/v1/documents?cursor=not-a-cursor", /^cursor: /],
    ["/v1/documents?namespace=a/b", /^namespace: /],
    ["/v1/documents/x?cursor=abc", /cursor/],
  ];
  for (const [path, message] of cases) {
    const response = await app.request(path, {}, env);
    assert.equal(response.status, 400, path);
    const body: ErrorBody = await response.json();
    assert.match(body.error.message, message, path);
  }
});

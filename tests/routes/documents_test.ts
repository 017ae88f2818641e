import assert from "node:assert/strict";
import { CORPUS, LONG_TEXT } from "./corpus.ts";
import { type ErrorBody, testApp } from "./helpers.ts";

type IngestBody = {
  namespace: string;
  documents: { id: string; chunks: number }[];
  chunks: number;
};
type SearchBody = { results: { id: string; doc_id: string; text: string }[] };

Deno.test("POST /v1/documents ingests documents and answers 201 with chunk counts", async () => {
  const { post } = testApp();
  const response = await post("/v1/documents", { documents: CORPUS });
  assert.equal(response.status, 201);
  const body: IngestBody = await response.json();
  assert.equal(body.namespace, "default");
  assert.deepEqual(body.documents, CORPUS.map((document) => ({ id: document.id, chunks: 1 })));
  assert.equal(body.chunks, 3);
});

Deno.test("POST /v1/documents gives chunks the stable ids `${doc_id}#n`", async () => {
  const { post } = testApp();
  const ingest = await post("/v1/documents", {
    documents: [{ id: "long", text: LONG_TEXT }],
    chunking: { size: 16, overlap: 0 },
  });
  assert.equal(ingest.status, 201);
  assert.deepEqual((await ingest.json() as IngestBody).documents, [{ id: "long", chunks: 4 }]);
  const search = await post("/v1/search", { query: "word0 word20 word40 word59", mode: "sparse" });
  const ids = (await search.json() as SearchBody).results.map((hit) => hit.id).sort();
  assert.deepEqual(ids, ["long#0", "long#1", "long#2", "long#3"]);
});

Deno.test("POST /v1/documents derives the same id from the same text when none is given", async () => {
  const { post } = testApp();
  const first: IngestBody = await (await post("/v1/documents", {
    documents: [{ text: "Anonymous text about glaciers." }],
  })).json();
  const second: IngestBody = await (await post("/v1/documents", {
    documents: [{ text: "Anonymous text about glaciers." }],
  })).json();
  assert.match(first.documents[0]!.id, /^doc-[0-9a-f]{16}$/);
  assert.equal(second.documents[0]!.id, first.documents[0]!.id);
});

Deno.test("POST /v1/documents again replaces the document's old chunks", async () => {
  const { app, env, post } = testApp();
  await post("/v1/documents", {
    documents: [{ id: "long", text: LONG_TEXT }],
    chunking: { size: 16, overlap: 0 },
  });
  const again = await post("/v1/documents", {
    documents: [{ id: "long", text: "A short replacement about glaciers." }],
    chunking: { size: 16, overlap: 0 },
  });
  assert.equal(again.status, 201);
  const stale = await post("/v1/search", { query: "word40 word59", mode: "sparse" });
  assert.deepEqual((await stale.json() as SearchBody).results, []);
  const deleted = await app.request("/v1/documents/long", { method: "DELETE" }, env);
  assert.equal((await deleted.json()).deleted_chunks, 1);
});

Deno.test({
  name: "POST /v1/documents refuses the same id twice in one request",
  async fn() {
    const { post } = testApp();
    const response = await post("/v1/documents", {
      documents: [{ id: "long", text: LONG_TEXT }, { id: "long", text: "short text" }],
      chunking: { size: 16, overlap: 0 },
    });
    assert.equal(response.status, 400);
    assert.match((await response.json() as ErrorBody).error.message, /^documents\.1\.id: /);
  },
});

Deno.test("POST /v1/documents answers 400 naming documents.N.text when text is missing", async () => {
  const { post } = testApp();
  for (const document of [{ id: "a" }, { id: "a", text: "   " }, { id: "a", text: 42 }]) {
    const response = await post("/v1/documents", { documents: [CORPUS[0], document] });
    assert.equal(response.status, 400);
    const body: ErrorBody = await response.json();
    assert.equal(body.error.type, "invalid_request");
    assert.match(body.error.message, /^documents\.1\.text: /);
  }
});

Deno.test("POST /v1/documents answers 400 naming documents for none or too many", async () => {
  const { post } = testApp();
  const many = Array.from({ length: 101 }, (_, i) => ({ id: `d${i}`, text: "text" }));
  for (const documents of [[], many, "not a list"]) {
    const response = await post("/v1/documents", { documents });
    assert.equal(response.status, 400);
    assert.match((await response.json() as ErrorBody).error.message, /^documents: /);
  }
});

Deno.test("POST /v1/documents answers 400 naming documents.N.id for a bad id", async () => {
  const { post } = testApp();
  // `/` joins an id's parts (a folder's `alpha/README`); an empty or `..` part is refused.
  for (const id of ["has space", "a//b", "/a", "a/../b", "x#1", "", "y".repeat(201)]) {
    const response = await post("/v1/documents", { documents: [{ id, text: "text" }] });
    assert.equal(response.status, 400, id);
    assert.match((await response.json() as ErrorBody).error.message, /^documents\.0\.id: /);
  }
});

Deno.test("POST /v1/documents answers 400 naming chunking.overlap when overlap ≥ size", async () => {
  const { post } = testApp();
  for (const overlap of [16, 20]) {
    const response = await post("/v1/documents", {
      documents: [{ id: "a", text: "text" }],
      chunking: { size: 16, overlap },
    });
    assert.equal(response.status, 400);
    assert.match((await response.json() as ErrorBody).error.message, /^chunking\.overlap: /);
  }
});

Deno.test("POST /v1/documents answers 413 when content-length exceeds the limit", async () => {
  const { post } = testApp();
  const response = await post("/v1/documents", { documents: [{ id: "a", text: "small" }] }, {
    "content-length": String(64 * 1024 * 1024),
  });
  assert.equal(response.status, 413);
  const body: ErrorBody = await response.json();
  assert.equal(body.error.type, "payload_too_large");
});

Deno.test("DELETE /v1/documents/:id answers 200 with the chunk count, then 404", async () => {
  const { app, env, post } = testApp();
  await post("/v1/documents", {
    documents: [{ id: "long", text: LONG_TEXT }, CORPUS[0]],
    chunking: { size: 16, overlap: 0 },
  });
  const first = await app.request("/v1/documents/long", { method: "DELETE" }, env);
  assert.equal(first.status, 200);
  assert.deepEqual(await first.json(), { id: "long", namespace: "default", deleted_chunks: 4 });
  const second = await app.request("/v1/documents/long", { method: "DELETE" }, env);
  assert.equal(second.status, 404);
  assert.equal((await second.json() as ErrorBody).error.type, "not_found");
  const left = await post("/v1/search", { query: "reciprocal rank fusion", mode: "sparse" });
  const docIds = (await left.json() as SearchBody).results.map((hit) => hit.doc_id);
  assert.deepEqual([...new Set(docIds)], ["rrf"]);
});

Deno.test("DELETE /v1/documents/:id works within the namespace it is given", async () => {
  const { app, env, post } = testApp();
  await post("/v1/documents", { documents: [CORPUS[0]], namespace: "papers" });
  const elsewhere = await app.request("/v1/documents/rrf", { method: "DELETE" }, env);
  assert.equal(elsewhere.status, 404);
  const here = await app.request("/v1/documents/rrf?namespace=papers", { method: "DELETE" }, env);
  assert.equal(here.status, 200);
  const bad = await app.request("/v1/documents/rrf?namespace=no%20way", { method: "DELETE" }, env);
  assert.equal(bad.status, 400);
  assert.match((await bad.json() as ErrorBody).error.message, /^namespace: /);
});

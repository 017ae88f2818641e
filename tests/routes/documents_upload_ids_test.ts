/**
 * An upload's files keep apart: an `id` field names the file after it, two
 * files with one id are refused naming both, and `skip_unchanged` leaves a
 * file whose bytes the stored document has alone.
 */
import assert from "node:assert/strict";
import { uploadApp } from "../helpers/documents.ts";
import type { ErrorBody } from "./helpers.ts";

type IngestBody = {
  namespace: string;
  documents: { id: string; chunks: number }[];
  chunks: number;
  unchanged?: string[];
};
type SearchBody = { results: { doc_id: string; text: string }[] };

/** A form of `[field, value]` pairs and `[file, name, text]` triples, in order. */
function formOf(
  entries: readonly (readonly [string, string] | readonly [string, string, string])[],
) {
  const form = new FormData();
  for (const entry of entries) {
    if (entry.length === 3) form.append(entry[0], new Blob([entry[2]]), entry[1]);
    else form.append(entry[0], entry[1]);
  }
  return form;
}

function routes() {
  const { app, env, count } = uploadApp();
  const call = (path: string, init: RequestInit = {}) => app.request(path, init, env);
  const send = (form: FormData) => call("/v1/documents", { method: "POST", body: form });
  const search = async (query: string, namespace = "default") => {
    const response = await call("/v1/search", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query, mode: "sparse", namespace }),
    });
    return (await response.json() as SearchBody).results.map((hit) => hit.doc_id);
  };
  return { call, send, search, count };
}

Deno.test("an upload's id fields name the file after them, and an id with '/' reads and deletes as %2F", async () => {
  const { call, send, search } = routes();
  const response = await send(formOf([
    ["id", "alpha/README"],
    ["file", "README", "Aardvarks dig at night."],
    ["id", "beta/README"],
    ["file", "README", "Bumblebees hum at noon."],
    ["file", "Tide Tables.md", "# Tides\n\nCormorants dive at dawn."],
  ]));
  assert.equal(response.status, 201, await response.clone().text());
  const body: IngestBody = await response.json();
  assert.deepEqual(body.documents.map((document) => document.id), [
    "alpha/README",
    "beta/README",
    "Tide-Tables",
  ]);
  assert.equal(body.unchanged, undefined);
  assert.deepEqual(await search("aardvarks"), ["alpha/README"]);
  assert.deepEqual(await search("bumblebees"), ["beta/README"]);
  const read = await call("/v1/documents/alpha%2FREADME");
  assert.equal(read.status, 200);
  const stored = await read.json() as { id: string; data: { metadata: Record<string, unknown> }[] };
  assert.equal(stored.id, "alpha/README");
  assert.match(String(stored.data[0]!.metadata.content_sha256), /^[0-9a-f]{64}$/);
  assert.equal((await call("/v1/documents/alpha%2FREADME", { method: "DELETE" })).status, 200);
  assert.equal((await call("/v1/documents/alpha%2FREADME")).status, 404);
  assert.deepEqual(await search("aardvarks"), []);
});

Deno.test("two files that map to one id in one upload are a 400 naming both, and nothing is stored", async () => {
  const { send, count } = routes();
  for (
    const form of [
      formOf([["file", "notes.md", "Gannets."], ["file", "notes.txt", "Puffins."]]),
      formOf([
        ["id", "c/README"],
        ["file", "first.txt", "Gannets."],
        ["id", "c/README"],
        ["file", "second.txt", "Puffins."],
      ]),
    ]
  ) {
    const response = await send(form);
    assert.equal(response.status, 400);
    const { error }: ErrorBody = await response.json();
    assert.match(
      error.message,
      /^file: (notes\.md|first\.txt) \(file 1\) and (notes\.txt|second\.txt) \(file 2\) are both document "(notes|c\/README)"/,
    );
  }
  assert.equal(await count(), 0);
});

Deno.test("skip_unchanged=true skips a file whose stored document has its bytes, and a changed one replaces its chunks", async () => {
  const { send, search } = routes();
  const upload = async (text: string, namespace = "default") => {
    const response = await send(formOf([
      ["id", "c/changelog"],
      ["file", "changelog", text],
      ["skip_unchanged", "true"],
      ["namespace", namespace],
    ]));
    assert.equal(response.status, 201, await response.clone().text());
    return await response.json() as IngestBody;
  };
  const first = await upload("Dromedaries cross the dunes.");
  assert.deepEqual(first.documents, [{ id: "c/changelog", chunks: 1 }]);
  assert.deepEqual(first.unchanged, []);
  const again = await upload("Dromedaries cross the dunes.");
  assert.deepEqual(again, {
    namespace: "default",
    documents: [],
    chunks: 0,
    unchanged: ["c/changelog"],
  });
  // Another namespace holds no copy: there it is new.
  assert.deepEqual((await upload("Dromedaries cross the dunes.", "other")).unchanged, []);
  const changed = await upload("Echidnas forage in the scrub.");
  assert.deepEqual(changed.documents, [{ id: "c/changelog", chunks: 1 }]);
  assert.deepEqual(await search("dromedaries"), []);
  assert.deepEqual(await search("echidnas"), ["c/changelog"]);
  // Without skip_unchanged the same bytes are stored again, as before.
  const form = formOf([["id", "c/changelog"], [
    "file",
    "changelog",
    "Echidnas forage in the scrub.",
  ]]);
  assert.deepEqual((await (await send(form)).json() as IngestBody).documents, [
    { id: "c/changelog", chunks: 1 },
  ]);
});

Deno.test("an id field with no file after it, a bad id, or a bad skip_unchanged is a 400 naming the field", async () => {
  const { send, count } = routes();
  for (
    const [form, why] of [
      [formOf([["file", "a.txt", "Text."], ["id", "a"]]), /^id: "a" is followed by no file part/],
      [formOf([["id", "a"], ["id", "b"], ["file", "a.txt", "Text."]]), /^id: "a"/],
      [formOf([["id", "a/../b"], ["file", "a.txt", "Text."]]), /^id: must not have '\.' or '\.\.'/],
      [formOf([["id", "a//b"], ["file", "a.txt", "Text."]]), /^id: must be letters/],
      [formOf([["file", "a.txt", "Text."], ["skip_unchanged", "yes"]]), /^skip_unchanged:/],
    ] as const
  ) {
    const response = await send(form);
    assert.equal(response.status, 400);
    assert.match((await response.json() as ErrorBody).error.message, why);
  }
  assert.equal(await count(), 0);
});

Deno.test("POST /v1/documents as JSON takes an id with '/' between parts", async () => {
  const { call } = routes();
  const post = (id: string) =>
    call("/v1/documents", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ documents: [{ id, text: "Kestrels hover." }] }),
    });
  assert.equal((await post("birds/kestrel")).status, 201);
  assert.equal((await call("/v1/documents/birds%2Fkestrel")).status, 200);
  const refused = await post("birds/../kestrel");
  assert.equal(refused.status, 400);
  assert.match((await refused.json() as ErrorBody).error.message, /documents\.0\.id/);
});

Deno.test("skip_unchanged looks only at the caller's tenant: another tenant's copy is not this one's", async () => {
  const env = { DEMO_CORPUS: "false", API_KEYS: "ka:acme,kb:globex" };
  const { app } = uploadApp(env);
  const send = async (key: string) => {
    const form = formOf([
      ["id", "c/changelog"],
      ["file", "changelog", "Dromedaries cross the dunes."],
      ["skip_unchanged", "true"],
    ]);
    const response = await app.request("/v1/documents", {
      method: "POST",
      headers: { authorization: `Bearer ${key}` },
      body: form,
    }, env);
    assert.equal(response.status, 201, await response.clone().text());
    return (await response.json() as IngestBody).unchanged;
  };
  assert.deepEqual(await send("ka"), []);
  assert.deepEqual(await send("kb"), []);
  assert.deepEqual(await send("ka"), ["c/changelog"]);
});

Deno.test("an upload of 30 files can name every one by an id field, beside namespace and skip_unchanged", async () => {
  const { send } = routes();
  const entries: (readonly [string, string] | readonly [string, string, string])[] = [
    ["namespace", "many"],
    ["skip_unchanged", "true"],
  ];
  for (let file = 1; file <= 30; file++) {
    entries.push(["id", `folder/${file}/README`], ["file", "README", `Note number ${file}.`]);
  }
  const response = await send(formOf(entries));
  assert.equal(response.status, 201, await response.clone().text());
  const body: IngestBody = await response.json();
  assert.equal(body.documents.length, 30);
  assert.equal(body.documents[29]?.id, "folder/30/README");
});

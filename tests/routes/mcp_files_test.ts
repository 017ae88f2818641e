/** MCP's `ingest` takes files as base64 with their names and hands the bytes to the embed step. */
import assert from "node:assert/strict";
import { connectMcp, textOf } from "../helpers/mcp_client.ts";
import { fixture, storedChunks, uploadApp } from "../helpers/documents.ts";

/** Base64 of bytes, in slices (a spread of a large array overflows the call stack). */
function encodeBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let at = 0; at < bytes.length; at += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  }
  return btoa(binary);
}

// deno-lint-ignore no-explicit-any
type Structured = any;

function mcpOver(app: ReturnType<typeof uploadApp>["app"], env: Record<string, string>) {
  return connectMcp("http://127.0.0.1:8787", {
    fetch: (input, init) => Promise.resolve(app.request(new Request(input, init), undefined, env)),
  });
}

Deno.test("MCP ingest stores a PDF sent as base64 with its name, pages and source kept", async () => {
  const { app, env } = uploadApp();
  const { client, close } = await mcpOver(app, env);
  try {
    const result = await client.callTool({
      name: "ingest",
      arguments: {
        files: [{ name: "paper.pdf", content_base64: encodeBase64(await fixture("paper.pdf")) }],
        namespace: "papers",
      },
    });
    assert.ok(!result.isError, textOf(result));
    const reply = result.structuredContent as Structured;
    assert.equal(reply.documents[0].id, "paper");
    assert.equal(reply.documents[0].uri, "sift://papers/paper");
    const chunks = await storedChunks(
      (path, init) => app.request(path, init, env),
      "paper",
      "papers",
    );
    assert.ok(chunks.length > 0);
    assert.ok(chunks.every((chunk) => chunk.metadata.source === "paper.pdf"));
    assert.ok(chunks.every((chunk) => typeof chunk.metadata.page === "number"));
  } finally {
    await close();
  }
});

Deno.test("MCP ingest refuses a PNG named .txt, saying why, and stores nothing", async () => {
  const { app, env, count } = uploadApp();
  const { client, close } = await mcpOver(app, env);
  try {
    const result = await client.callTool({
      name: "ingest",
      arguments: {
        files: [{ name: "photo.txt", content_base64: encodeBase64(await fixture("photo.txt")) }],
      },
    });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /photo\.txt: is a PNG image, not text/);
    assert.equal(await count(), 0);
    const neither = await client.callTool({ name: "ingest", arguments: {} });
    assert.equal(neither.isError, true);
    assert.match(textOf(neither), /documents or files/);
  } finally {
    await close();
  }
});

Deno.test("MCP ingest refuses two files that would be one document, naming both; ids with '/' keep them apart", async () => {
  const { app, env, count } = uploadApp();
  const { client, close } = await mcpOver(app, env);
  const file = (name: string, text: string, id?: string) => ({
    name,
    content_base64: encodeBase64(new TextEncoder().encode(text)),
    ...(id ? { id } : {}),
  });
  try {
    const clash = await client.callTool({
      name: "ingest",
      arguments: { files: [file("notes.md", "Gannets nest."), file("notes.txt", "Puffins nest.")] },
    });
    assert.equal(clash.isError, true);
    assert.match(
      textOf(clash),
      /notes\.md \(file 1\) and notes\.txt \(file 2\) are both document "notes"/,
    );
    assert.equal(await count(), 0);
    const apart = await client.callTool({
      name: "ingest",
      arguments: {
        files: [
          file("README", "Gannets nest.", "a/README"),
          file("README", "Puffins nest.", "b/README"),
        ],
      },
    });
    assert.ok(!apart.isError, textOf(apart));
    const uris = (apart.structuredContent as Structured).documents.map((d: Structured) => d.uri);
    assert.deepEqual(uris, ["sift://default/a%2FREADME", "sift://default/b%2FREADME"]);
    const read = await client.readResource({ uri: "sift://default/b%2FREADME" });
    assert.equal((read.contents[0] as { text: string }).text, "Puffins nest.");
  } finally {
    await close();
  }
});

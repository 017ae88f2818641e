import assert from "node:assert/strict";
import { testApp } from "./helpers.ts";

const HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
};

async function rpc(body: string | Uint8Array<ArrayBuffer>) {
  const { app, env } = testApp();
  const response = await app.request("/mcp", { method: "POST", headers: HEADERS, body }, env);
  return {
    status: response.status,
    body: (await response.json()) as { id: null; error: { code: number; message: string } },
  };
}

Deno.test("/mcp answers an invalid JSON-RPC envelope with -32600 and text that is not JSON with -32700", async () => {
  const invalid = [
    '{"jsonrpc": "1.0", "method": "ping", "id": 1}',
    '{"method": "ping", "id": 1}',
    '{"jsonrpc": "2.0", "id": 1}',
    '{"jsonrpc": "2.0", "method": 7, "id": 1}',
    "[]",
    "[1]",
    '"ping"',
  ];
  for (const text of invalid) {
    const { status, body } = await rpc(text);
    assert.equal(status, 400, text);
    assert.equal(body.error.code, -32600, text);
    assert.match(body.error.message, /^Invalid Request: /, text);
    assert.equal(body.id, null);
  }
  const parse = await rpc('{"jsonrpc": "2.0", "method": NaN');
  assert.equal(parse.body.error.code, -32700);
  assert.match(parse.body.error.message, /^Parse error: .*method, line 1, column 30: NaN/);
  const bytes = await rpc(new Uint8Array([0x7b, 0xff, 0x7d]));
  assert.equal(bytes.body.error.code, -32700);
  assert.match(bytes.body.error.message, /not valid UTF-8 at byte 1/);
});

Deno.test("/mcp still answers a valid envelope (ping) after the envelope check", async () => {
  const { app, env } = testApp();
  const response = await app.request("/mcp", {
    method: "POST",
    headers: HEADERS,
    body: '{"jsonrpc": "2.0", "method": "ping", "id": 1}',
  }, env);
  assert.equal(response.status, 200);
  const text = await response.text();
  const data = text.split("\n").find((line) => line.startsWith("data: "));
  assert.deepEqual(JSON.parse(data?.slice("data: ".length) ?? text), {
    jsonrpc: "2.0",
    id: 1,
    result: {},
  });
});

import assert from "node:assert/strict";
import { EMPTY_ENV, type ErrorBody, testApp } from "./helpers.ts";

type OpenApiDocument = {
  paths: Record<string, Record<string, { requestBody?: { content?: Record<string, unknown> } }>>;
};

/** `{"query": "caf` + 0xff + `"}`: the bad byte sits at offset 14, inside `query`. */
const BAD_QUERY = new Uint8Array([
  ...new TextEncoder().encode('{"query": "caf'),
  0xff,
  ...new TextEncoder().encode('"}'),
]);

Deno.test("invalid UTF-8 in a JSON body gets 400 naming the field and the byte offset, on every JSON route", async () => {
  const secret = `whsec_${btoa("sift-test-ingest-secret-0123456789")}`;
  const { app, env } = testApp({
    ...EMPTY_ENV,
    INGEST_WEBHOOK_SECRET: secret,
    WEBHOOK_SECRET: secret,
  });
  const document = await (await app.request("/openapi.json", {}, env)).json() as OpenApiDocument;
  const routes = Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method, operation]) =>
        method !== "get" && operation.requestBody?.content?.["application/json"]
      )
      .map(([method]) => ({ method: method.toUpperCase(), path: path.replace(/\{[^}]+\}/g, "x") }))
  );
  assert.ok(routes.length >= 20, `only ${routes.length} JSON routes`);
  for (const { method, path } of routes) {
    const response = await app.request(path, {
      method,
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: BAD_QUERY,
    }, env);
    const label = `${method} ${path}`;
    const text = await response.text();
    if (path === "/v1/webhooks/documents") {
      // Unsigned: the sender is not told anything about its body.
      assert.equal(response.status, 401, label);
      continue;
    }
    assert.equal(response.status, 400, `${label}: ${text}`);
    assert.match(text, /query: not valid UTF-8 at byte 14/, label);
  }
});

Deno.test("a body that is not UTF-8 outside any field is named `body`, with its byte offset", async () => {
  const { app, env } = testApp();
  const response = await app.request("/v1/search", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: new Uint8Array([0x20, 0xc0, 0x80]),
  }, env);
  assert.equal(response.status, 400);
  const body: ErrorBody = await response.json();
  assert.match(body.error.message, /^body: not valid UTF-8 at byte 1/);
});

async function signBytes(secret: string, id: string, timestamp: string, bytes: Uint8Array) {
  const raw = Uint8Array.from(atob(secret.slice("whsec_".length)), (c) => c.charCodeAt(0));
  const key = await crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  const prefix = new TextEncoder().encode(`${id}.${timestamp}.`);
  const signature = await crypto.subtle.sign("HMAC", key, new Uint8Array([...prefix, ...bytes]));
  return `v1,${btoa(String.fromCharCode(...new Uint8Array(signature)))}`;
}

Deno.test("a signed webhook body that is not UTF-8 is verified over its bytes, then refused with 400 naming the offset", async () => {
  const secret = `whsec_${btoa("sift-test-ingest-secret-0123456789")}`;
  const { app, env } = testApp({ ...EMPTY_ENV, INGEST_WEBHOOK_SECRET: secret });
  const bytes = new Uint8Array([
    ...new TextEncoder().encode('{"documents": [{"id": "d", "text": "caf'),
    0xe9,
    ...new TextEncoder().encode('"}]}'),
  ]);
  const timestamp = String(Math.floor(Date.now() / 1000));
  const send = async (signature: string) =>
    await app.request("/v1/webhooks/documents", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "webhook-id": "msg_utf8",
        "webhook-timestamp": timestamp,
        "webhook-signature": signature,
      },
      body: bytes,
    }, env);
  const signed = await send(await signBytes(secret, "msg_utf8", timestamp, bytes));
  assert.equal(signed.status, 400);
  assert.match(
    ((await signed.json()) as ErrorBody).error.message,
    /^documents\.0\.text: not valid UTF-8 at byte 39/,
  );
  const forged = await send(await signBytes(secret, "msg_other", timestamp, bytes));
  assert.equal(forged.status, 401);
  assert.match(((await forged.json()) as ErrorBody).error.message, /signature does not match/);
});

Deno.test("NaN, Infinity, undefined and single quotes are named with their field and position", async () => {
  const { app, env } = testApp();
  const cases: Array<[string, RegExp]> = [
    ['{"query": "q", "top_k": NaN}', /top_k, line 1, column 25: NaN is not a JSON value/],
    ['{"query": "q",\n "top_k": -Infinity}', /top_k, line 2, column 11: -Infinity is not/],
    ['{"query": undefined}', /query, line 1, column 11: undefined is not a JSON value/],
    ["{'query': 'q'}", /body, line 1, column 2: strings take double quotes/],
    ['{"query": "q",}', /body, line 1, column 15: a trailing comma/],
    ['{"query": "unterminated', /query, line 1, column 11: a string that is never closed/],
  ];
  for (const [text, expected] of cases) {
    const response = await app.request("/v1/search", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: text,
    }, env);
    assert.equal(response.status, 400, text);
    const { error }: ErrorBody = await response.json();
    assert.match(error.message, /^body: must be valid JSON \(/, text);
    assert.match(error.message, expected, text);
    assert.ok(!error.message.includes(text), "the body is not echoed back");
  }
});

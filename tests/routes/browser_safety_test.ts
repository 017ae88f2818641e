/**
 * What keeps a web page from writing to sift: JSON bodies must say so, a
 * foreign `Origin` is refused, listed origins get CORS, and every reply
 * tells browsers not to sniff it or (JSON) cache it.
 */
import assert from "node:assert/strict";
import { EMPTY_ENV, type ErrorBody, testApp } from "./helpers.ts";

const SEARCH = JSON.stringify({ query: "reciprocal rank fusion" });

Deno.test("a JSON route answers 415 to a text/plain body and ingests nothing", async () => {
  const { app, env, post } = testApp();
  const response = await app.request("/v1/documents", {
    method: "POST",
    headers: { "content-type": "text/plain" },
    body: JSON.stringify({ documents: [{ id: "planted", text: "planted by a web page" }] }),
  }, env);
  assert.equal(response.status, 415);
  const body = await response.json() as ErrorBody;
  assert.equal(body.error.type, "unsupported_media_type");
  assert.match(body.error.message, /^content-type: must be application\/json, not text\/plain/);
  const search = await (await post("/v1/search", { query: "planted", mode: "sparse" })).json();
  assert.deepEqual(search.results, []);
});

Deno.test("a JSON route takes application/json with a charset and application/*+json", async () => {
  const { app, env } = testApp();
  for (
    const type of [
      "application/json; charset=utf-8",
      "Application/JSON",
      "application/vnd.sift+json",
    ]
  ) {
    const response = await app.request("/v1/search", {
      method: "POST",
      headers: { "content-type": type },
      body: SEARCH,
    }, env);
    assert.equal(response.status, 200, type);
  }
  const missing = await app.request("/v1/search", { method: "POST", body: SEARCH }, env);
  assert.equal(missing.status, 415);
  const form = await app.request("/v1/search", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: SEARCH,
  }, env);
  assert.equal(form.status, 415);
});

Deno.test("the signed webhook refuses a text/plain body with 415 before checking the signature", async () => {
  const { app } = testApp();
  const response = await app.request("/v1/webhooks/documents", {
    method: "POST",
    headers: { "content-type": "text/plain" },
    body: "{}",
  }, { ...EMPTY_ENV, INGEST_WEBHOOK_SECRET: `whsec_${btoa("k".repeat(32))}` });
  assert.equal(response.status, 415);
});

Deno.test("a foreign Origin gets 403 on writes and reads; none at all is a client outside a browser", async () => {
  const { app, env } = testApp({ ...EMPTY_ENV, CORS_ORIGINS: "https://app.example" });
  const write = await app.request("/v1/documents", {
    method: "POST",
    headers: { "content-type": "application/json", origin: "https://evil.example" },
    body: JSON.stringify({ documents: [{ text: "planted" }] }),
  }, env);
  assert.equal(write.status, 403);
  assert.equal((await write.json() as ErrorBody).error.type, "forbidden");
  const read = await app.request("/healthz", { headers: { origin: "null" } }, env);
  assert.equal(read.status, 403);
  const unset = await app.request("/healthz", { headers: { origin: "https://app.example" } }, {
    ...EMPTY_ENV,
  });
  assert.equal(unset.status, 403, "without CORS_ORIGINS every origin is foreign");
  const plain = await app.request("/healthz", {}, env);
  assert.equal(plain.status, 200);
});

Deno.test("a listed origin gets its preflight answered 204 and CORS headers on the reply", async () => {
  const { app, env } = testApp({
    ...EMPTY_ENV,
    CORS_ORIGINS: "https://app.example, http://localhost:5173",
  });
  const preflight = await app.request("/v1/search", {
    method: "OPTIONS",
    headers: {
      origin: "https://app.example",
      "access-control-request-method": "POST",
      "access-control-request-headers": "content-type, authorization",
    },
  }, env);
  assert.equal(preflight.status, 204);
  assert.equal(preflight.headers.get("access-control-allow-origin"), "https://app.example");
  assert.match(preflight.headers.get("access-control-allow-methods") ?? "", /POST/);
  assert.match(preflight.headers.get("access-control-allow-headers") ?? "", /authorization/);
  assert.match(preflight.headers.get("vary") ?? "", /Origin/);

  const search = await app.request("/v1/search", {
    method: "POST",
    headers: { "content-type": "application/json", origin: "http://localhost:5173" },
    body: SEARCH,
  }, env);
  assert.equal(search.status, 200);
  assert.equal(search.headers.get("access-control-allow-origin"), "http://localhost:5173");
  assert.match(search.headers.get("access-control-expose-headers") ?? "", /x-request-id/);

  const foreign = await app.request("/v1/search", {
    method: "OPTIONS",
    headers: { origin: "https://evil.example", "access-control-request-method": "POST" },
  }, env);
  assert.equal(foreign.status, 403);
  assert.equal(foreign.headers.get("access-control-allow-origin"), null);
});

Deno.test("replies carry nosniff, JSON ones no-store, errors included", async () => {
  const { app, env, post } = testApp();
  const replies = [
    await app.request("/healthz", {}, env),
    await post("/v1/search", { query: "" }),
    await app.request("/no/such/route", {}, env),
    await app.request("/openapi.json", {}, env),
  ];
  for (const reply of replies) {
    assert.equal(reply.headers.get("x-content-type-options"), "nosniff", reply.url);
    assert.equal(reply.headers.get("cache-control"), "no-store", `${reply.status}`);
    await reply.body?.cancel();
  }
});

Deno.test("a 401 carries WWW-Authenticate: Bearer", async () => {
  const { app } = testApp();
  const response = await app.request("/v1/search", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: SEARCH,
  }, { ...EMPTY_ENV, API_KEYS: "key-1" });
  assert.equal(response.status, 401);
  assert.match(response.headers.get("www-authenticate") ?? "", /^Bearer\b/);
  await response.body?.cancel();
});

import assert from "node:assert/strict";
import { Webhook } from "standardwebhooks";
import { EMPTY_ENV, type ErrorBody, testApp } from "./helpers.ts";

const SECRET = "whsec_" + btoa("sift-test-ingest-secret-0123456789");
const ENV = { ...EMPTY_ENV, INGEST_WEBHOOK_SECRET: SECRET, API_KEYS: "caller-key" };

const push = {
  documents: [{ id: "pushed-doc", title: "Pushed", text: "Zanzibar cloves arrive by webhook." }],
};

function signed(id: string, body: string, at = new Date(), secret = SECRET) {
  return {
    "content-type": "application/json",
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": new Webhook(secret).sign(id, at, body),
  };
}

Deno.test("POST /v1/webhooks/documents ingests a verified push once, even when delivered twice", async () => {
  const { app, env, post } = testApp(ENV);
  const body = JSON.stringify(push);
  const first = await app.request("/v1/webhooks/documents", {
    method: "POST",
    headers: signed("msg_1", body),
    body,
  }, env);
  assert.equal(first.status, 201);
  assert.equal(((await first.json()) as { chunks: number }).chunks > 0, true);
  const again = await app.request("/v1/webhooks/documents", {
    method: "POST",
    headers: signed("msg_1", body),
    body,
  }, env);
  assert.equal(again.status, 200);
  assert.deepEqual(await again.json(), { duplicate: true, webhook_id: "msg_1" });
  const search = await post("/v1/search", { query: "Zanzibar cloves" }, {
    authorization: "Bearer caller-key",
  });
  const { results } = (await search.json()) as { results: { doc_id: string }[] };
  assert.equal(results.filter((result) => result.doc_id === "pushed-doc").length, 1);
});

Deno.test("POST /v1/webhooks/documents refuses forged, stale and unsigned pushes with 401", async () => {
  const { app, env } = testApp(ENV);
  const body = JSON.stringify(push);
  const forged = signed(
    "msg_2",
    body,
    new Date(),
    "whsec_" + btoa("another-secret-entirely-0123456"),
  );
  const stale = signed("msg_3", body, new Date(Date.now() - 6 * 60_000));
  const tampered = { ...signed("msg_4", body) };
  const cases: [string, Record<string, string>, string, RegExp][] = [
    ["forged", forged, body, /signature does not match/],
    ["stale", stale, body, /more than 5 minutes/],
    ["unsigned", { "content-type": "application/json" }, body, /missing/],
    ["tampered", tampered, body.replace("cloves", "nutmeg"), /signature does not match/],
  ];
  for (const [name, headers, payload, reason] of cases) {
    const response = await app.request("/v1/webhooks/documents", {
      method: "POST",
      headers,
      body: payload,
    }, env);
    assert.equal(response.status, 401, name);
    assert.match(((await response.json()) as ErrorBody).error.message, reason, name);
  }
});

Deno.test("POST /v1/webhooks/documents with a verified but invalid body names the field", async () => {
  const { app, env } = testApp(ENV);
  const body = JSON.stringify({ documents: [] });
  const response = await app.request("/v1/webhooks/documents", {
    method: "POST",
    headers: signed("msg_5", body),
    body,
  }, env);
  assert.equal(response.status, 400);
  assert.match(((await response.json()) as ErrorBody).error.message, /^documents: /);
});

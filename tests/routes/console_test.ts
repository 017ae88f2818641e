/**
 * `GET /`: the console page, served open by the all-in-one app and by the
 * orchestrator alone, under a CSP whose script hash matches the page's one
 * script; and the page's own same-origin calls get past the Origin check.
 */
import assert from "node:assert/strict";
import { createOrchestratorServer } from "../../functions/orchestrator/server.ts";
import { Runtime } from "../../compose/runtime.ts";
import { EMPTY_ENV, testApp } from "./helpers.ts";

async function sha256Source(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return `'sha256-${btoa(String.fromCharCode(...new Uint8Array(digest)))}'`;
}

Deno.test("GET / is the console, open with API_KEYS, a few tens of KB, its script allowed by hash", async () => {
  const { app } = testApp();
  const response = await app.request("/", {}, { ...EMPTY_ENV, API_KEYS: "secret" });
  assert.equal(response.status, 200);
  assert.match(response.headers.get("content-type") ?? "", /^text\/html/);
  assert.equal(response.headers.get("x-content-type-options"), "nosniff");
  const html = await response.text();
  assert.ok(html.length > 10_000 && html.length < 80_000, `${html.length} bytes`);
  const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1]!);
  assert.equal(scripts.length, 1);
  const policy = response.headers.get("content-security-policy") ?? "";
  assert.match(policy, /default-src 'none'/);
  assert.match(policy, /connect-src 'self'/);
  assert.ok(policy.includes(`script-src ${await sha256Source(scripts[0]!)}`), policy);
  assert.ok(!/(src|href)="(https?:)?\/\//.test(html), "nothing loaded from another host");
});

Deno.test("the orchestrator alone (the Worker's app) serves the same page", async () => {
  const alone = await createOrchestratorServer(new Runtime()).request("/", {}, EMPTY_ENV);
  const { app } = testApp();
  const allInOne = await app.request("/", {}, EMPTY_ENV);
  assert.equal(alone.status, 200);
  assert.equal(await alone.text(), await allInOne.text());
});

Deno.test("a POST whose Origin is the host it was sent to passes the Origin check; another origin gets 403", async () => {
  const { app, env } = testApp();
  const post = (origin: string) =>
    app.request("http://sift.test/v1/search", {
      method: "POST",
      headers: { origin, host: "sift.test:8787", "content-type": "application/json" },
      body: JSON.stringify({ query: "fusion" }),
    }, env);
  assert.equal((await post("http://sift.test:8787")).status, 200);
  assert.equal((await post("https://sift.test:8787")).status, 200, "a proxy may end TLS");
  for (const foreign of ["http://sift.test", "http://sift.test:9999", "http://evil.test:8787"]) {
    const refused = await post(foreign);
    assert.equal(refused.status, 403, foreign);
    await refused.body?.cancel();
  }
});

/**
 * `/healthz` while the embedded index loads: 503 `loading` (a load balancer
 * sends nothing yet), a search meanwhile waits for the load and is answered,
 * and once loaded `/healthz` is 200 with `index.status` `ok`.
 */
import assert from "node:assert/strict";
import { createSiftApp } from "../../app.ts";
import { Runtime } from "../../compose/runtime.ts";
import type { IndexLog } from "../../lib/vector-index/mod.ts";
import { EMPTY_ENV, testApp } from "./helpers.ts";

/** A log whose load waits until `release()`: a large index being read. */
function slowLog() {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const log: IndexLog = {
    location: "slow.log",
    load: async () => (await released, { records: [] }),
    append: () => Promise.resolve(),
    tailBytes: 0,
    checkpointBytes: 0,
    checkpoint: () => Promise.resolve(),
  };
  return { log, release };
}

Deno.test("/healthz is 503 loading until the index is loaded; a search meanwhile waits and is answered", async () => {
  const { log, release } = slowLog();
  const { app, env, post } = testApp(EMPTY_ENV, createSiftApp({ runtime: new Runtime({ log }) }));
  const loading = await app.request("/healthz", {}, env);
  assert.equal(loading.status, 503);
  const body = await loading.json();
  assert.equal(body.status, "loading");
  assert.deepEqual(body.index, { status: "loading" });

  let answered = false;
  const search = Promise.resolve(post("/v1/search", { query: "anything", mode: "sparse" }))
    .then((response) => (answered = true, response));
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(answered, false, "the search waits for the load");
  release();
  const response = await search;
  assert.equal(response.status, 200, await response.clone().text());
  await response.body?.cancel();

  const ready = await app.request("/healthz", {}, env);
  assert.equal(ready.status, 200);
  assert.deepEqual((await ready.json()).index, { status: "ok" });
});

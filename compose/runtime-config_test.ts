import assert from "node:assert/strict";
import { Runtime } from "./runtime.ts";

Deno.test("Runtime.config() reuses the config for a fresh env with the same contents", () => {
  const runtime = new Runtime();
  const first = runtime.config({ LLM_PROVIDER: "offline" });
  assert.equal(runtime.config({ LLM_PROVIDER: "offline" }), first);
  assert.equal(runtime.deps(first, {}).llm, runtime.deps(first, {}).llm);
});

Deno.test("Runtime.config() reads a changed env again: another value, a key added or removed", () => {
  const runtime = new Runtime();
  const first = runtime.config({ RATE_LIMIT_PER_MINUTE: "10" });
  const changed = runtime.config({ RATE_LIMIT_PER_MINUTE: "20" });
  assert.notEqual(changed, first);
  assert.equal(changed.rateLimit?.perMinute, 20);
  const added = runtime.config({ RATE_LIMIT_PER_MINUTE: "20", CORS_ORIGINS: "https://a.example" });
  assert.deepEqual(added.corsOrigins, ["https://a.example"]);
  const removed = runtime.config({ RATE_LIMIT_PER_MINUTE: "20" });
  assert.deepEqual(removed.corsOrigins, []);
});

Deno.test("Runtime.config() compares bindings by identity", () => {
  const runtime = new Runtime();
  const first = runtime.config({ BINDING: {} });
  assert.notEqual(runtime.config({ BINDING: {} }), first);
});

Deno.test("Runtime keeps an env found equal, so its next requests compare it by identity", () => {
  const runtime = new Runtime();
  const first = { LLM_PROVIDER: "offline", RATE_LIMIT_PER_MINUTE: "10" };
  const config = runtime.config(first);
  runtime.deps(config, first);
  let reads = 0;
  const copy = new Proxy({ ...first }, {
    ownKeys(target) {
      reads++;
      return Reflect.ownKeys(target);
    },
  });
  assert.equal(runtime.config(copy), config); // compared key by key, once
  runtime.deps(config, copy);
  const afterFirst = reads;
  assert.ok(afterFirst > 0);
  for (let i = 0; i < 3; i++) {
    assert.equal(runtime.config(copy), config);
    runtime.deps(config, copy);
  }
  assert.equal(reads, afterFirst);
});

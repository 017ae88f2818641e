import assert from "node:assert/strict";
import { isRateLimitBinding, WorkersBindingRateLimiter } from "./ratelimit-binding.ts";

/** A binding like the local one in wrangler dev: a counter per key, `limit` per period. */
function fakeBinding(limit: number) {
  const counts = new Map<string, number>();
  const calls: string[] = [];
  return {
    calls,
    limit({ key }: { key: string }) {
      calls.push(key);
      const used = counts.get(key) ?? 0;
      if (used >= limit) return Promise.resolve({ success: false });
      counts.set(key, used + 1);
      return Promise.resolve({ success: true });
    },
  };
}

Deno.test("WorkersBindingRateLimiter asks the binding per unit and stops at its first no", async () => {
  const binding = fakeBinding(3);
  assert.ok(isRateLimitBinding(binding));
  const limiter = new WorkersBindingRateLimiter(binding, { limit: 3, now: () => 0 });
  assert.deepEqual(await limiter.consume("k", 2), { allowed: true, limit: 3 });
  assert.deepEqual(await limiter.consume("k", 2), {
    allowed: false,
    limit: 3,
    remaining: 0,
    resetAt: 60_000,
  });
  assert.deepEqual(binding.calls, ["k", "k", "k", "k"]);
});

Deno.test("WorkersBindingRateLimiter refuses a charge above the limit without calling the binding", async () => {
  const binding = fakeBinding(30);
  const limiter = new WorkersBindingRateLimiter(binding, { limit: 30 });
  assert.equal((await limiter.consume("k", 31)).allowed, false);
  assert.deepEqual(binding.calls, []);
  assert.equal(isRateLimitBinding({ fetch() {} }), false, "a service binding is not one");
});

import assert from "node:assert/strict";
import { MemoryRateLimiter } from "./memory.ts";

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

Deno.test("MemoryRateLimiter allows `limit` units per window, then refuses until it ends", async () => {
  const time = clock();
  const limiter = new MemoryRateLimiter({ limit: 3, windowMs: 60_000, now: time.now });
  const remaining = [];
  for (let i = 0; i < 3; i++) {
    const decision = await limiter.consume("a", 1);
    assert.equal(decision.allowed, true);
    remaining.push(decision.remaining);
  }
  assert.deepEqual(remaining, [2, 1, 0]);
  time.advance(59_999);
  const refused = await limiter.consume("a", 1);
  assert.deepEqual(refused, { allowed: false, limit: 3, remaining: 0, resetAt: 1_060_000 });
  time.advance(1);
  assert.equal((await limiter.consume("a", 1)).allowed, true, "a new window starts");
});

Deno.test("MemoryRateLimiter counts each key on its own", async () => {
  const limiter = new MemoryRateLimiter({ limit: 1, now: clock().now });
  assert.equal((await limiter.consume("a", 1)).allowed, true);
  assert.equal((await limiter.consume("a", 1)).allowed, false);
  assert.equal((await limiter.consume("b", 1)).allowed, true);
});

Deno.test("MemoryRateLimiter refuses a charge that does not fit whole, and keeps the window as it was", async () => {
  const limiter = new MemoryRateLimiter({ limit: 10, now: clock().now });
  assert.equal((await limiter.consume("a", 7)).remaining, 3);
  const refused = await limiter.consume("a", 4);
  assert.equal(refused.allowed, false);
  assert.equal(refused.remaining, 3, "a refused charge takes nothing");
  assert.equal((await limiter.consume("a", 3)).allowed, true);
  assert.equal((await limiter.consume("big", 11)).allowed, false, "more than the limit never fits");
});

Deno.test("MemoryRateLimiter drops expired windows, so memory holds one window's keys", async () => {
  const time = clock();
  const limiter = new MemoryRateLimiter({ limit: 5, windowMs: 1_000, now: time.now });
  for (let i = 0; i < 1000; i++) await limiter.consume(`caller-${i}`, 1);
  assert.equal(limiter.size, 1000);
  time.advance(1_000);
  await limiter.consume("late", 1);
  assert.equal(limiter.size, 1, "only the key charged in the live window is left");
});

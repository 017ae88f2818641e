import assert from "node:assert/strict";
import { MemoryCache } from "../../shared/cache/memory.ts";

/** A clock the test moves by hand. */
function fakeClock(start = 1_000_000) {
  const clock = { now: start, read: () => clock.now };
  return clock;
}

Deno.test("MemoryCache returns what was set and undefined for unknown keys", async () => {
  const cache = new MemoryCache();
  await cache.set("k", { a: [1, 2] });
  assert.deepEqual(await cache.get("k"), { a: [1, 2] });
  assert.equal(await cache.get("missing"), undefined);
});

Deno.test("MemoryCache evicts the least recently used entry past maxEntries", async () => {
  const cache = new MemoryCache({ maxEntries: 2 });
  await cache.set("a", 1);
  await cache.set("b", 2);
  assert.equal(await cache.get("a"), 1); // a is now more recent than b
  await cache.set("c", 3);
  assert.equal(cache.size, 2);
  assert.equal(await cache.get("b"), undefined);
  assert.equal(await cache.get("a"), 1);
  assert.equal(await cache.get("c"), 3);
});

Deno.test("MemoryCache counts a set of an existing key as a use", async () => {
  const cache = new MemoryCache({ maxEntries: 2 });
  await cache.set("a", 1);
  await cache.set("b", 2);
  await cache.set("a", 10);
  await cache.set("c", 3);
  assert.equal(await cache.get("b"), undefined);
  assert.equal(await cache.get("a"), 10);
});

Deno.test("MemoryCache expires an entry once its TTL has passed", async () => {
  const clock = fakeClock();
  const cache = new MemoryCache({ now: clock.read });
  await cache.set("k", "v", { ttlSeconds: 60 });
  clock.now += 59_999;
  assert.equal(await cache.get("k"), "v");
  clock.now += 1;
  assert.equal(await cache.get("k"), undefined);
  assert.equal(cache.size, 0, "an expired entry is dropped on read");
});

Deno.test("MemoryCache keeps an entry without a TTL indefinitely", async () => {
  const clock = fakeClock();
  const cache = new MemoryCache({ now: clock.read });
  await cache.set("k", "v");
  clock.now += 10 * 365 * 24 * 3600 * 1000;
  assert.equal(await cache.get("k"), "v");
});

Deno.test("MemoryCache hands out copies, so callers cannot change what is cached", async () => {
  const cache = new MemoryCache();
  const value = { list: [1] };
  await cache.set("k", value);
  value.list.push(2);
  const first = await cache.get<{ list: number[] }>("k");
  first!.list.push(3);
  assert.deepEqual(await cache.get("k"), { list: [1] });
});

Deno.test("MemoryCache.delete() removes an entry", async () => {
  const cache = new MemoryCache();
  await cache.set("k", 1);
  await cache.delete("k");
  assert.equal(await cache.get("k"), undefined);
});

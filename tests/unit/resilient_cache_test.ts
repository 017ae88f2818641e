import assert from "node:assert/strict";
import { MemoryCache } from "../../shared/cache/memory.ts";
import type { CacheStore } from "../../shared/cache/port.ts";
import { ResilientCache } from "../../shared/cache/resilient.ts";

/** A store whose every call fails, as Redis does when it is unreachable. */
const brokenStore: CacheStore = {
  name: "broken",
  get: () => Promise.reject(new Error("connection refused")),
  set: () => Promise.reject(new Error("connection refused")),
  delete: () => Promise.reject(new Error("connection refused")),
};

function recordingReporter() {
  const reports: string[] = [];
  return {
    reports,
    onError: (operation: string, key: string) => reports.push(`${operation} ${key}`),
  };
}

Deno.test("ResilientCache turns a failing read into a miss and reports it", async () => {
  const { reports, onError } = recordingReporter();
  const cache = new ResilientCache(brokenStore, { onError });
  assert.equal(await cache.get("k"), undefined);
  assert.deepEqual(reports, ["get k"]);
});

Deno.test("ResilientCache drops a failing write without throwing", async () => {
  const { reports, onError } = recordingReporter();
  const cache = new ResilientCache(brokenStore, { onError });
  await cache.set("k", 1, { ttlSeconds: 5 });
  assert.deepEqual(reports, ["set k"]);
});

Deno.test("ResilientCache.getOrSet() computes on a failing store and still returns the value", async () => {
  const { onError } = recordingReporter();
  const cache = new ResilientCache(brokenStore, { onError });
  let calls = 0;
  const result = await cache.getOrSet("k", () => Promise.resolve(++calls));
  assert.deepEqual(result, { value: 1, cached: false });
});

Deno.test("ResilientCache.getOrSet() computes on a miss, then serves the cached value", async () => {
  const cache = new ResilientCache(new MemoryCache());
  let calls = 0;
  const compute = () => Promise.resolve({ n: ++calls });
  assert.deepEqual(await cache.getOrSet("k", compute), { value: { n: 1 }, cached: false });
  assert.deepEqual(await cache.getOrSet("k", compute), { value: { n: 1 }, cached: true });
  assert.equal(calls, 1);
});

Deno.test("ResilientCache.getOrSet() computes concurrent identical misses once", async () => {
  const cache = new ResilientCache(new MemoryCache());
  let calls = 0;
  let release!: () => void;
  const gate = new Promise<void>((resolve) => release = resolve);
  const compute = async () => {
    calls++;
    await gate;
    return "value";
  };
  const pending = Array.from({ length: 5 }, () => cache.getOrSet("same", compute));
  release();
  const results = await Promise.all(pending);
  assert.equal(calls, 1);
  for (const result of results) assert.equal(result.value, "value");
  // A different key is not shared.
  await cache.getOrSet("other", compute);
  assert.equal(calls, 2);
});

Deno.test("ResilientCache.getOrSet() shares the in-flight map across wrappers", async () => {
  const inflight = new Map<string, Promise<unknown>>();
  const store = new MemoryCache();
  let calls = 0;
  const compute = async () => {
    calls++;
    await new Promise((resolve) => setTimeout(resolve, 1));
    return 42;
  };
  await Promise.all([
    new ResilientCache(store, { inflight }).getOrSet("k", compute),
    new ResilientCache(store, { inflight }).getOrSet("k", compute),
  ]);
  assert.equal(calls, 1);
  assert.equal(inflight.size, 0, "the entry is removed once settled");
});

Deno.test("ResilientCache.getOrSet() does not cache a failed computation", async () => {
  const cache = new ResilientCache(new MemoryCache());
  await assert.rejects(cache.getOrSet("k", () => Promise.reject(new Error("boom"))), /boom/);
  assert.deepEqual(await cache.getOrSet("k", () => Promise.resolve(7)), {
    value: 7,
    cached: false,
  });
});

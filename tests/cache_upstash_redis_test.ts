import assert from "node:assert/strict";
import { errors, Redis } from "@upstash/redis";
import { UpstashRedisCache } from "../adapters/upstash/redis-cache.ts";
import { ConfigError, UpstreamError } from "../shared/errors.ts";
import { redisServerOrSkip, startRedisRestStack } from "./helpers/redis_rest_server.ts";

const { redisServerPath, ignore } = redisServerOrSkip("cache_upstash_redis_test");

/** Registers a test that gets a fresh redis-server + REST translator. */
function redisTest(
  name: string,
  fn: (stack: Awaited<ReturnType<typeof startRedisRestStack>>) => Promise<void>,
) {
  Deno.test({
    name,
    ignore,
    fn: async () => {
      await using stack = await startRedisRestStack({ redisServerPath });
      await fn(stack);
    },
  });
}

/** The SDK as an app would use it, without telemetry headers or retries. */
function rawClient(stack: { url: string; token: string }): Redis {
  return new Redis({ url: stack.url, token: stack.token, retry: false, enableTelemetry: false });
}

function isUpstreamCacheError(error: unknown): boolean {
  assert.ok(error instanceof UpstreamError, `expected UpstreamError, got ${error}`);
  assert.equal(error.type, "upstream_error");
  assert.equal(error.message, "The cache provider failed");
  return true;
}

redisTest("UpstashRedisCache round-trips JSON values unchanged", async (stack) => {
  const cache = new UpstashRedisCache({ url: stack.url, token: stack.token });
  const values: Record<string, unknown> = {
    object: { query: "rrf", hits: [{ id: "d1", score: 0.5 }], nested: { ok: true } },
    string: "plain text",
    numericString: "42",
    jsonLookingString: '{"a":1}',
    unicode: "naïve café ☃ 😀",
    number: 3.25,
    zero: 0,
    boolean: false,
    array: [1, "two", null],
  };
  for (const [key, value] of Object.entries(values)) await cache.set(key, value);
  for (const [key, value] of Object.entries(values)) {
    assert.deepEqual(await cache.get(key), value, key);
  }
  assert.equal(await cache.get("never-set"), undefined);
});

redisTest(
  "UpstashRedisCache applies ttlSeconds as EX and leaves other keys persistent",
  async (stack) => {
    const cache = new UpstashRedisCache({ url: stack.url, token: stack.token });
    const redis = rawClient(stack);
    await cache.set("short", "v", { ttlSeconds: 60 });
    await cache.set("fractional", "v", { ttlSeconds: 1.2 });
    await cache.set("forever", "v");
    const shortTtl = await redis.ttl("sift:short");
    assert.ok(shortTtl > 55 && shortTtl <= 60, `ttl was ${shortTtl}`);
    assert.equal(await redis.ttl("sift:fractional"), 2);
    assert.equal(await redis.ttl("sift:forever"), -1);
    const sent = stack.restServer.requests.flatMap((request) =>
      request.path === "/pipeline" ? request.body as unknown[] : [request.body]
    );
    assert.ok(
      sent.some((command) => JSON.stringify(command) === '["set","sift:short","\\"v\\"","ex",60]'),
    );
  },
);

redisTest("UpstashRedisCache treats a used-up TTL as a delete", async (stack) => {
  const cache = new UpstashRedisCache({ url: stack.url, token: stack.token });
  await cache.set("key", "v");
  await cache.set("key", "v2", { ttlSeconds: 0 });
  assert.equal(await cache.get("key"), undefined);
});

redisTest("UpstashRedisCache.delete removes the key", async (stack) => {
  const cache = new UpstashRedisCache({ url: stack.url, token: stack.token });
  await cache.set("key", { a: 1 });
  await cache.delete("key");
  assert.equal(await cache.get("key"), undefined);
  await cache.delete("key"); // deleting a missing key is not an error
});

redisTest("UpstashRedisCache stores keys under its prefix", async (stack) => {
  const redis = rawClient(stack);
  await new UpstashRedisCache({ url: stack.url, token: stack.token }).set("key", 1);
  await new UpstashRedisCache({ redis, keyPrefix: "other:" }).set("key", 2);
  assert.deepEqual(await redis.keys("*").then((keys) => keys.sort()), ["other:key", "sift:key"]);
  assert.equal(await redis.get("sift:key"), 1);
  assert.equal(await redis.get("other:key"), 2);
});

redisTest("the translator serves SDK pipelines and transactions", async (stack) => {
  const redis = rawClient(stack);
  const pipelined = await redis.pipeline().set("p", "1").incr("p").get("p").rpush("list", "a", "ü")
    .lrange("list", 0, -1).exec();
  assert.deepEqual(pipelined, ["OK", 2, 2, 2, ["a", "ü"]]);
  const transaction = await redis.multi().incr("p").get("p").exec();
  assert.deepEqual(transaction, [3, 3]);
  const paths = stack.restServer.requests.map((request) => request.path);
  assert.ok(paths.includes("/pipeline"), paths.join());
  assert.ok(paths.includes("/multi-exec"), paths.join());
  assert.ok(stack.restServer.requests.every((request) => request.base64), "SDK asks for base64");
});

redisTest(
  "the translator base64-encodes strings in nested results and reports Redis errors",
  async (stack) => {
    await rawClient(stack).rpush("list", "x", "ÿ");
    const post = (path: string, body: unknown, token = stack.token) =>
      fetch(stack.url + path, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "upstash-encoding": "base64" },
        body: JSON.stringify(body),
      });
    const scan = await post("/", ["SCAN", 0, "MATCH", "list"]);
    assert.deepEqual(await scan.json(), { result: [btoa("0"), [btoa("list")]] });
    const mixed = await post("/pipeline", [["LLEN", "list"], ["GET", "missing"], ["INCR", "list"]]);
    assert.deepEqual(await mixed.json(), [
      { result: 2 },
      { result: null },
      { error: "WRONGTYPE Operation against a key holding the wrong kind of value" },
    ]);
    const failed = await post("/", ["INCR", "list"]);
    assert.equal(failed.status, 400);
    assert.match((await failed.json()).error, /^WRONGTYPE/);
    const unauthorized = await post("/", ["PING"], "wrong");
    assert.equal(unauthorized.status, 401);
    await unauthorized.body?.cancel();
  },
);

redisTest("UpstashRedisCache with a wrong token throws UpstreamError", async (stack) => {
  const cache = new UpstashRedisCache({ url: stack.url, token: "wrong-token" });
  await assert.rejects(cache.get("key"), (error) => {
    isUpstreamCacheError(error);
    const cause = (error as UpstreamError).cause;
    assert.ok(cause instanceof errors.UpstashError);
    assert.match(cause.message, /Unauthorized/);
    assert.equal((error as UpstreamError).isRetryable, false);
    return true;
  });
});

redisTest("UpstashRedisCache turns a 500 into UpstreamError without retrying", async (stack) => {
  const cache = new UpstashRedisCache({ url: stack.url, token: stack.token, retries: 0 });
  stack.restServer.failNext(1);
  await assert.rejects(cache.set("key", "v"), isUpstreamCacheError);
  assert.equal(stack.restServer.requests.length, 1, "one request: no retry");
  await cache.set("key", "v"); // the next call reaches Redis again
  assert.equal(await cache.get("key"), "v");
});

redisTest(
  "UpstashRedisCache reports an unreachable server as a retryable UpstreamError",
  async (stack) => {
    const cache = new UpstashRedisCache({ url: stack.url, token: stack.token, retries: 1 });
    await stack.restServer.close();
    await assert.rejects(cache.get("key"), (error) => {
      isUpstreamCacheError(error);
      assert.equal((error as UpstreamError).isRetryable, true);
      return true;
    });
  },
);

redisTest("UpstashRedisCache gives up after timeoutMs", async (stack) => {
  const cache = new UpstashRedisCache({
    url: stack.url,
    token: stack.token,
    timeoutMs: 100,
    retries: 0,
  });
  stack.restServer.failNext(1, { status: 200, body: '{"result":null}', delayMs: 400 });
  // The reply would come (a 200) after 400 ms: a rejection means the cache gave up first.
  await assert.rejects(cache.get("key"), (error) => {
    isUpstreamCacheError(error);
    assert.equal((error as UpstreamError).isRetryable, true);
    return true;
  });
});

Deno.test("UpstashRedisCache construction does no I/O and rejects missing config", () => {
  // Nothing listens on port 9; building the cache must not notice.
  const cache = new UpstashRedisCache({ url: "http://127.0.0.1:9", token: "t" });
  assert.equal(cache.name, "upstash-redis");
  assert.equal(cache.keyPrefix, "sift:");
  assert.throws(() => new UpstashRedisCache({ url: "", token: "t" }), ConfigError);
  assert.throws(() => new UpstashRedisCache({ url: "not a url", token: "t" }), ConfigError);
});

/**
 * `@upstash/ratelimit` through its own SDK against the local Upstash REST
 * stand-in (a real redis-server behind it, so the SDK's Lua scripts run as
 * written), then through the app: two apps on one Redis share the limit.
 */
import assert from "node:assert/strict";
import { Redis } from "@upstash/redis";
import { createSiftApp } from "../app.ts";
import { UpstashRateLimiter } from "../adapters/upstash/ratelimit.ts";
import { redisServerOrSkip, startRedisRestStack } from "./helpers/redis_rest_server.ts";

const { redisServerPath, ignore } = redisServerOrSkip("ratelimit_upstash_test");

function redisTest(
  name: string,
  fn: (stack: Awaited<ReturnType<typeof startRedisRestStack>>) => Promise<void>,
) {
  Deno.test({
    name,
    ignore,
    fn: async () => {
      await using stack = await startRedisRestStack({ redisServerPath });
      await awayFromWindowEdge();
      await fn(stack);
    },
  });
}

/** Fixed windows are aligned to the minute: a test starts well inside one. */
async function awayFromWindowEdge(): Promise<void> {
  const intoWindow = Date.now() % 60_000;
  if (intoWindow > 50_000) await new Promise((resolve) => setTimeout(resolve, 60_100 - intoWindow));
}

/** The commands the REST server received, by name (single or pipelined). */
function commandNames(stack: Awaited<ReturnType<typeof startRedisRestStack>>): string[] {
  return stack.restServer.requests.flatMap((request) => {
    const body = request.body as unknown[];
    const commands = Array.isArray(body[0]) ? body as unknown[][] : [body];
    return commands.map((command) => String(command[0]).toLowerCase());
  });
}

redisTest(
  "UpstashRateLimiter allows `limit` per minute through EVALSHA, loading the script once",
  async (stack) => {
    const limiter = new UpstashRateLimiter({ url: stack.url, token: stack.token, limit: 3 });
    const decisions = [];
    for (let i = 0; i < 4; i++) decisions.push(await limiter.consume("ip:203.0.113.7", 1));
    assert.deepEqual(decisions.map((decision) => decision.allowed), [true, true, true, false]);
    assert.deepEqual(decisions.map((decision) => decision.remaining), [2, 1, 0, 0]);
    const windowEnd = (Math.floor(Date.now() / 60_000) + 1) * 60_000;
    assert.ok(decisions.every((decision) => decision.resetAt === windowEnd));
    // Redis knew no script: NOSCRIPT, then EVAL once, then EVALSHA hits the cached script.
    assert.deepEqual(commandNames(stack), ["evalsha", "eval", "evalsha", "evalsha", "evalsha"]);
    assert.equal((await limiter.consume("ip:198.51.100.2", 1)).allowed, true, "keys apart");

    const redis = new Redis({ url: stack.url, token: stack.token, enableTelemetry: false });
    const keys = await redis.keys("sift:ratelimit:*");
    assert.equal(keys.length, 2, keys.join());
    const ttl = await redis.pttl(keys[0]!);
    assert.ok(ttl > 0 && ttl <= 60_000, `each window expires (${ttl} ms)`);
  },
);

redisTest("UpstashRateLimiter hands back a refused charge of several units", async (stack) => {
  const limiter = new UpstashRateLimiter({ url: stack.url, token: stack.token, limit: 10 });
  assert.equal((await limiter.consume("key:a", 7)).remaining, 3);
  const refused = await limiter.consume("key:a", 5);
  assert.equal(refused.allowed, false);
  assert.equal(refused.remaining, 3, "the refused 5 units were given back");
  assert.equal((await limiter.consume("key:a", 3)).allowed, true);
  assert.equal((await limiter.consume("key:a", 1)).allowed, false);
});

redisTest(
  "with Upstash Redis configured, two apps share one limit; a failing Redis lets requests through",
  async (stack) => {
    const env = {
      DEMO_CORPUS: "false",
      RATE_LIMIT_PER_MINUTE: "3",
      API_KEYS: "key-1",
      UPSTASH_REDIS_REST_URL: stack.url,
      UPSTASH_REDIS_REST_TOKEN: stack.token,
    };
    const post = (app: ReturnType<typeof createSiftApp>) =>
      app.request("/v1/judge/agreement", {
        method: "POST",
        headers: { "content-type": "application/json", authorization: "Bearer key-1" },
        body: JSON.stringify({ x: [1, 2, 3], y: [3, 2, 1] }),
      }, env);
    const [first, second] = [createSiftApp(), createSiftApp()];
    assert.equal((await post(first)).status, 200);
    assert.equal((await post(second)).status, 200);
    const third = await post(first);
    assert.equal(third.status, 200);
    assert.equal(third.headers.get("ratelimit-remaining"), "0");
    const refused = await post(second);
    assert.equal(refused.status, 429, "the other app's requests counted");
    assert.ok(Number(refused.headers.get("retry-after")) >= 1);
    assert.equal((await refused.json()).error.type, "rate_limited");
    const stored = JSON.stringify(stack.restServer.requests.map((request) => request.body));
    assert.ok(!stored.includes("key-1"), "the API key is hashed before it reaches Redis");

    stack.restServer.failNext(5, { status: 500 });
    const original = console.error;
    const logged: unknown[] = [];
    console.error = (...args: unknown[]) => logged.push(args);
    try {
      const during = await post(first);
      assert.equal(during.status, 200, "a limiter that is down does not take sift down");
      assert.equal(during.headers.get("ratelimit-limit"), null);
    } finally {
      console.error = original;
    }
    assert.match(String((logged[0] as unknown[])[0]), /rate limiter \(upstash-redis\) failed/);
  },
);

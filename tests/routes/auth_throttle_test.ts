/**
 * Failed authentication is throttled per client address (#23): after
 * `AUTH_FAILURES_PER_MINUTE` wrong keys from one address, every request from
 * it gets 429 with `Retry-After` until the window ends, a right key too (so a
 * guess cannot be told right by its answer); other addresses are untouched.
 */
import assert from "node:assert/strict";
import { createSiftApp } from "../../app.ts";
import { FailedAuthThrottle } from "../../shared/http/auth-throttle.ts";
import { withClientAddress } from "../../shared/ratelimit/origin.ts";

const ENV = { DEMO_CORPUS: "false", API_KEYS: "right:acme", AUTH_FAILURES_PER_MINUTE: "5" };

function appFrom() {
  const app = createSiftApp();
  return (address: string, key: string) =>
    app.fetch(
      withClientAddress(
        new Request("http://sift.test/v1/models", { headers: { authorization: `Bearer ${key}` } }),
        { transport: "tcp", hostname: address },
      ),
      ENV,
    );
}

Deno.test("the 6th wrong key from an address gets 429, and so does a right key from it", async () => {
  const call = appFrom();
  for (let i = 0; i < 5; i++) {
    const response = await call("203.0.113.7", `guess-${i}`);
    assert.equal(response.status, 401, `guess ${i}`);
    await response.body?.cancel();
  }
  const throttled = await call("203.0.113.7", "guess-5");
  assert.equal(throttled.status, 429);
  assert.ok(Number(throttled.headers.get("retry-after")) >= 1);
  const body = (await throttled.json()) as { error: { type: string; message: string } };
  // /v1/models is OpenAI-compatible: its errors are OpenAI's, whatever raised them.
  assert.equal(body.error.type, "rate_limit_error");
  assert.match(body.error.message, /failed authentications/);
  const right = await call("203.0.113.7", "right");
  assert.equal(right.status, 429, "a right key from a throttled address is not told apart");
  await right.body?.cancel();
  // Other addresses (IPv4, and IPv6 in another /64) are not throttled.
  for (const address of ["198.51.100.1", "2001:db8:1::1"]) {
    const other = await call(address, "right");
    assert.equal(other.status, 200, address);
    await other.body?.cancel();
  }
});

Deno.test("a right key does not count as a failure, and IPv6 addresses count by /64", async () => {
  const call = appFrom();
  for (let i = 0; i < 20; i++) {
    const response = await call("203.0.113.8", "right");
    assert.equal(response.status, 200);
    await response.body?.cancel();
  }
  for (let i = 0; i < 5; i++) await (await call(`2001:db8:2::${i + 1}`, "wrong")).body?.cancel();
  const rotated = await call("2001:db8:2::ffff", "wrong");
  assert.equal(rotated.status, 429, "rotating addresses inside one /64 does not escape");
  await rotated.body?.cancel();
});

Deno.test("FailedAuthThrottle lets an address try again once its window has passed", () => {
  let now = 1_000_000;
  const throttle = new FailedAuthThrottle({ windowMs: 60_000, now: () => now });
  for (let i = 0; i < 3; i++) throttle.fail("ip:203.0.113.9");
  assert.equal(throttle.retryAfterSeconds("ip:203.0.113.9", 3), 60);
  assert.equal(throttle.retryAfterSeconds("ip:203.0.113.9", 4), undefined);
  now += 59_000;
  assert.equal(throttle.retryAfterSeconds("ip:203.0.113.9", 3), 1);
  now += 1_000;
  assert.equal(throttle.retryAfterSeconds("ip:203.0.113.9", 3), undefined);
});

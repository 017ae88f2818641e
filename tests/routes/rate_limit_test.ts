/**
 * `RATE_LIMIT_PER_MINUTE` through the whole app (the in-memory limiter): the
 * request over the limit gets 429 with `Retry-After` and `RateLimit-*`,
 * callers are counted apart, steps the app calls in-process are not counted
 * again, and an evaluation pays for the steps it schedules.
 */
import assert from "node:assert/strict";
import { createSiftApp } from "../../app.ts";
import { withClientAddress } from "../../shared/ratelimit/origin.ts";
import { CORPUS } from "./corpus.ts";
import { type ErrorBody, readEvents } from "./helpers.ts";

const ENV = { DEMO_CORPUS: "false", RATE_LIMIT_PER_MINUTE: "30" };

/** A fresh app (its own limiter) and requests as `Deno.serve` in main.ts hands them over. */
function limitedApp(env: Record<string, string> = ENV) {
  const app = createSiftApp();
  const background: Promise<unknown>[] = [];
  const context = {
    waitUntil: (work: Promise<unknown>) => background.push(work),
    passThroughOnException() {},
    props: {},
  };
  const send = (
    path: string,
    options: { body?: unknown; headers?: Record<string, string>; from?: string } = {},
  ) => {
    const request = new Request(`http://sift${path}`, {
      method: options.body === undefined ? "GET" : "POST",
      headers: { "content-type": "application/json", ...options.headers },
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    });
    const served = options.from
      ? withClientAddress(request, { transport: "tcp", hostname: options.from })
      : request;
    return app.fetch(served, env, context);
  };
  const agreement = (options: { headers?: Record<string, string>; from?: string } = {}) =>
    send("/v1/judge/agreement", { body: { x: [1, 2, 3], y: [1, 3, 2] }, ...options });
  return { send, agreement, background };
}

function remainingOf(response: Response): number {
  return Number(response.headers.get("ratelimit-remaining"));
}

Deno.test("RATE_LIMIT_PER_MINUTE=30: 30 requests pass, the 31st gets 429 with Retry-After; /healthz is never limited", async () => {
  const { send, agreement } = limitedApp();
  for (let i = 1; i <= 30; i++) {
    const response = await agreement({ from: "203.0.113.7" });
    assert.equal(response.status, 200, `request ${i}: ${await response.clone().text()}`);
    await response.body?.cancel();
    assert.equal(response.headers.get("ratelimit-limit"), "30");
    assert.equal(remainingOf(response), 30 - i);
    const reset = Number(response.headers.get("ratelimit-reset"));
    assert.ok(reset >= 1 && reset <= 60, `RateLimit-Reset ${reset}`);
  }
  const refused = await agreement({ from: "203.0.113.7" });
  assert.equal(refused.status, 429);
  const body = await refused.json() as ErrorBody;
  assert.equal(body.error.type, "rate_limited");
  assert.match(body.error.message, /Rate limit of 30 requests per minute exceeded/);
  const retryAfter = refused.headers.get("retry-after");
  assert.match(retryAfter ?? "", /^\d+$/, "Retry-After in whole seconds");
  assert.ok(Number(retryAfter) >= 1 && Number(retryAfter) <= 60);
  assert.equal(refused.headers.get("ratelimit-limit"), "30");
  assert.equal(refused.headers.get("ratelimit-remaining"), "0");
  assert.equal(refused.headers.get("ratelimit-reset"), retryAfter);
  assert.ok(refused.headers.get("x-request-id"), "the shell's headers are still there");

  for (let i = 0; i < 3; i++) {
    const health = await send("/healthz", { from: "203.0.113.7" });
    assert.equal(health.status, 200);
    assert.equal((await health.json()).status, "ok");
    assert.equal(health.headers.get("ratelimit-limit"), null, "/healthz is not counted");
  }
  const other = await agreement({ from: "198.51.100.2" });
  assert.equal(other.status, 200, "another address has its own window");
  assert.equal(remainingOf(other), 29);
  await other.body?.cancel();
});

Deno.test("without API_KEYS callers are told apart by the connection's address, not by headers they send", async () => {
  const { agreement } = limitedApp({ ...ENV, RATE_LIMIT_PER_MINUTE: "2" });
  for (const forwardedFor of ["192.0.2.1", "192.0.2.2"]) {
    const response = await agreement({
      from: "203.0.113.7",
      headers: { "x-forwarded-for": forwardedFor, "x-sift-rate-limit-key": `ip:${forwardedFor}` },
    });
    assert.equal(response.status, 200);
    await response.body?.cancel();
  }
  const forged = await agreement({
    from: "203.0.113.7",
    headers: { "x-forwarded-for": "192.0.2.3", "cf-connecting-ip": "192.0.2.3" },
  });
  assert.equal(forged.status, 429, "forged client headers do not open a new window");
  await forged.body?.cancel();
  const sameV6Net = await agreement({ from: "2001:db8:1:2::10" });
  assert.equal(sameV6Net.status, 200);
  await sameV6Net.body?.cancel();
  const neighbour = await agreement({ from: "2001:db8:1:2::11" });
  assert.equal(remainingOf(neighbour), 0, "an IPv6 client is counted by its /64");
  await neighbour.body?.cancel();
});

Deno.test("with API_KEYS each key has its own window, whatever address it comes from", async () => {
  const { agreement } = limitedApp({ ...ENV, API_KEYS: "key-a,key-b", RATE_LIMIT_PER_MINUTE: "2" });
  const as = (key: string, from: string) =>
    agreement({ from, headers: { authorization: `Bearer ${key}` } });
  assert.equal((await as("key-a", "203.0.113.1")).status, 200);
  assert.equal((await as("key-a", "203.0.113.2")).status, 200);
  const refused = await as("key-a", "203.0.113.3");
  assert.equal(refused.status, 429);
  await refused.body?.cancel();
  const other = await as("key-b", "203.0.113.1");
  assert.equal(other.status, 200, "key-b is counted apart from key-a");
  assert.equal(remainingOf(other), 1);
  const unauthorized = await agreement({ from: "203.0.113.1" });
  assert.equal(unauthorized.status, 401, "auth comes first");
});

Deno.test("a /v1/query with fusion and rerank counts once: its in-process steps are not counted again", async () => {
  const { send, agreement } = limitedApp();
  const ingested = await send("/v1/documents", { body: { documents: CORPUS } });
  assert.equal(ingested.status, 201);
  assert.equal(remainingOf(ingested), 29);
  const query = await send("/v1/query", {
    body: {
      query: "How does reciprocal rank fusion score a document?",
      pipeline: { retrieval: { fusion: 2 }, rerank: { strategy: "one-turn" } },
    },
  });
  assert.equal(query.status, 200);
  assert.equal(remainingOf(query), 28);
  const events = await readEvents(query);
  const usage = events.find((event) => event.event === "usage")?.data as {
    steps: { name: string; via: string }[];
  };
  assert.ok(usage.steps.length >= 3, JSON.stringify(usage));
  assert.ok(usage.steps.every((step) => step.via === "in-process"), JSON.stringify(usage));
  const next = await agreement();
  assert.equal(remainingOf(next), 27, "the query's steps cost nothing");
  await next.body?.cancel();
});

Deno.test("an evaluation is charged questions × variants when accepted, and refused when they do not fit", async () => {
  const { send, background } = limitedApp();
  assert.equal((await send("/v1/documents", { body: { documents: CORPUS } })).status, 201);
  const questions = (count: number) =>
    Array.from({ length: count }, (_, i) => ({ question: `What is fusion number ${i}?` }));
  const accepted = await send("/v1/evaluations", {
    body: { dataset: { questions: questions(5) }, variants: ["none", "one-turn"] },
  });
  assert.equal(accepted.status, 202, await accepted.clone().text());
  assert.equal(
    remainingOf(accepted),
    19,
    "5 questions × 2 variants = 10 units, the request's own included",
  );
  await Promise.all(background);

  const tooMany = await send("/v1/evaluations", {
    body: { dataset: { questions: questions(11) }, variants: ["none", "one-turn"] },
  });
  assert.equal(tooMany.status, 429);
  assert.match((await tooMany.json() as ErrorBody).error.message, /schedules 22 steps/);
  assert.ok(Number(tooMany.headers.get("retry-after")) >= 1);
  assert.equal(remainingOf(tooMany), 18, "only the refused request's own unit was taken");

  const limited = await send("/v1/evaluations", {
    body: { dataset: { questions: questions(11) }, variants: ["none"], limit: 3 },
  });
  assert.equal(limited.status, 202, "`limit` caps the questions that are charged");
  assert.equal(remainingOf(limited), 15);
  await Promise.all(background);
  const after = await send("/v1/judge/agreement", { body: { x: [1, 2], y: [2, 1] } });
  assert.equal(remainingOf(after), 14, "the evaluations' own steps were not counted");
  await after.body?.cancel();
});

Deno.test("RATE_LIMIT_PER_MINUTE unset: no limit and no RateLimit headers", async () => {
  const { agreement } = limitedApp({ DEMO_CORPUS: "false" });
  const response = await agreement();
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("ratelimit-limit"), null);
  await response.body?.cancel();
});

Deno.test("an evaluation with more steps than a minute allows is refused without using up the window", async () => {
  const { send } = limitedApp();
  const refused = await send("/v1/evaluations", {
    body: {
      dataset: { questions: Array.from({ length: 16 }, (_, i) => ({ question: `Q${i}?` })) },
      variants: ["none", "one-turn"],
    },
  });
  assert.equal(refused.status, 429);
  assert.match(
    (await refused.json() as ErrorBody).error.message,
    /schedules 32 steps, more than the rate limit of 30 per minute allows/,
  );
  assert.equal(refused.headers.get("retry-after"), null, "waiting would not help");
  assert.equal(remainingOf(refused), 29, "only the request itself was counted");
});

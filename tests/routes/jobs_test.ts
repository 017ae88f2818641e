import assert from "node:assert/strict";
import { handleJobMessage } from "../../shared/jobs/consume.ts";
import { retryDelayMs } from "../../shared/jobs/deliver.ts";
import { readConfig } from "../../shared/config.ts";
import { MemoryJobBackend } from "../../shared/jobs/memory.ts";
import type { Job } from "../../shared/jobs/types.ts";
import { EMPTY_ENV, type ErrorBody, testApp, withoutErrorLogs } from "./helpers.ts";

const SECRET = "whsec_" + btoa("sift-test-webhook-secret-0123456789");
const ENV = { ...EMPTY_ENV, WEBHOOK_SECRET: SECRET };

Deno.test("POST /v1/jobs without WEBHOOK_SECRET is a 503 that names the variable", async () => {
  const { post } = testApp();
  const response = await withoutErrorLogs(() =>
    post("/v1/jobs", {
      route: "/v1/search",
      body: { query: "x" },
      callback_url: "https://hooks.example.com/sift",
    })
  );
  assert.equal(response.status, 503);
  assert.match(((await response.json()) as ErrorBody).error.message, /WEBHOOK_SECRET/);
});

Deno.test("POST /v1/jobs names the bad field: route, body, callback_url", async () => {
  const { post } = testApp(ENV);
  const cases: [unknown, RegExp][] = [
    [{ route: "/v1/jobs", body: {}, callback_url: "https://a.example/" }, /^route: must be one of/],
    [{ route: "/v1/search", body: [1], callback_url: "https://a.example/" }, /^body: /],
    [{ route: "/v1/search", body: {} }, /^callback_url: /],
    [
      { route: "/v1/search", body: {}, callback_url: "http://a.example/" },
      /callback_url: must be an https URL/,
    ],
    [{ route: "/v1/search", body: {}, callback_url: "https://a.example/", extra: 1 }, /extra/],
  ];
  for (const [body, message] of cases) {
    const response = await post("/v1/jobs", body);
    assert.equal(response.status, 400, JSON.stringify(body));
    assert.match(((await response.json()) as ErrorBody).error.message, message);
  }
});

Deno.test("POST /v1/jobs refuses every loopback spelling of callback_url with a 400 naming it", async () => {
  // Only this machine's own addresses go through the route; private and metadata
  // addresses are checked against the guard as a pure function (shared/http/public-url_test.ts).
  const { post } = testApp(ENV);
  for (
    const host of [
      "localhost",
      "127.0.0.1",
      "127.1",
      "0x7f000001",
      "[::1]",
      "[::ffff:127.0.0.1]",
      "0.0.0.0",
    ]
  ) {
    const response = await post("/v1/jobs", {
      route: "/v1/search",
      body: { query: "x" },
      callback_url: `https://${host}/hook`,
    });
    assert.equal(response.status, 400, host);
    assert.match(
      ((await response.json()) as ErrorBody).error.message,
      /^callback_url: must not point at/,
    );
  }
});

Deno.test("GET /v1/jobs/:id of an unknown job is a 404", async () => {
  const { app } = testApp(ENV);
  const response = await app.request("/v1/jobs/job_nope", {}, ENV);
  assert.equal(response.status, 404);
});

Deno.test("a delivery that keeps failing stops after JOB_MAX_ATTEMPTS, the job failed and its result kept", async () => {
  const backend = new MemoryJobBackend();
  const config = readConfig({
    WEBHOOK_SECRET: SECRET,
    JOB_MAX_ATTEMPTS: "3",
    JOB_RETRY_BASE_MS: "1",
  });
  const attempts: Request[] = [];
  const delivered = Promise.withResolvers<void>();
  backend.attach(async (message) => {
    await handleJobMessage(message, {
      backend,
      config,
      fetch: () => Promise.resolve(Response.json({ results: ["kept"] })),
      deliver: (input, init) => {
        attempts.push(new Request(input, init));
        if (attempts.length === 3) setTimeout(delivered.resolve, 50);
        return Promise.resolve(new Response("no", { status: 500 }));
      },
    });
  });
  const job: Job = {
    id: "job_1",
    status: "queued",
    route: "/v1/search",
    body: { query: "x" },
    callback_url: "https://hooks.example.com/sift",
    created_at: new Date().toISOString(),
    updated_at: new Date().toISOString(),
    delivery: { attempts: 0 },
  };
  await backend.create(job);
  await delivered.promise;
  const stored = await backend.get("job_1");
  backend.close();
  assert.equal(attempts.length, 3);
  assert.equal(stored?.status, "failed");
  assert.deepEqual(stored?.result, { results: ["kept"] });
  assert.equal(stored?.error?.type, "delivery_failed");
  assert.equal(stored?.delivery.attempts, 3);
  assert.equal(stored?.delivery.last_status, 500);
  assert.equal(attempts[0]!.redirect, "manual");
});

Deno.test("retryDelayMs() doubles from the base", () => {
  assert.deepEqual([1, 2, 3, 4].map((attempts) => retryDelayMs(attempts, 2000)), [
    2000,
    4000,
    8000,
    16000,
  ]);
});

Deno.test("a job can run /v1/responses: the delivered result is the Responses API's reply", async () => {
  const backend = new MemoryJobBackend();
  const config = readConfig({ WEBHOOK_SECRET: SECRET });
  const { app, env } = testApp(ENV);
  const delivered = Promise.withResolvers<Request>();
  backend.attach(async (message) => {
    await handleJobMessage(message, {
      backend,
      config,
      fetch: async (request) => await app.fetch(request, env),
      deliver: (input, init) => {
        delivered.resolve(new Request(input, init));
        return Promise.resolve(new Response(null, { status: 204 }));
      },
    });
  });
  await backend.create({
    id: "job_responses",
    status: "queued",
    route: "/v1/responses",
    body: { model: "sift-none", input: "What is retrieval-augmented generation?" },
    callback_url: "https://hooks.example.com/sift",
    created_at: new Date().toISOString(),
    updated_at: new Date().toISOString(),
    delivery: { attempts: 0 },
  });
  const callback = await (await delivered.promise).json() as {
    type: string;
    data: { status: string; result: { object: string; status: string; output_text?: string } };
  };
  backend.close();
  assert.equal(callback.type, "job.succeeded");
  assert.equal(callback.data.result.object, "response");
  assert.equal(callback.data.result.status, "completed");
});

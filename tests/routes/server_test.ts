import assert from "node:assert/strict";
import { createSiftApp } from "../../app.ts";
import { EMPTY_ENV, type ErrorBody, testApp, withoutErrorLogs } from "./helpers.ts";

const KEYED_ENV = { ...EMPTY_ENV, API_KEYS: "k1,k2" };
const searchInit = (headers: Record<string, string> = {}) => ({
  method: "POST",
  headers: { "content-type": "application/json", ...headers },
  body: JSON.stringify({ query: "anything" }),
});

/** True when a body looks like it carries a stack trace or an internal error name. */
function leaksInternals(text: string): boolean {
  return /\n\s+at |SyntaxError|ZodError|TypeError|file:\/\/|\.ts:\d+/.test(text);
}

Deno.test("GET /healthz reports every provider offline", async () => {
  const { app, env } = testApp();
  const response = await app.request("/healthz", {}, env);
  assert.equal(response.status, 200);
  assert.deepEqual(await response.json(), {
    status: "ok",
    providers: { llm: "offline", embeddings: "offline", index: "offline", cache: "offline" },
    checks: { llm: "ok", embeddings: "ok", index: "ok", cache: "ok" },
    index: { status: "ok" },
  });
});

Deno.test("with API_KEYS set, a request without a bearer key gets 401", async () => {
  const app = createSiftApp();
  const response = await app.request("/v1/search", searchInit(), KEYED_ENV);
  assert.equal(response.status, 401);
  const body: ErrorBody = await response.json();
  assert.equal(body.error.type, "unauthorized");
});

Deno.test("with API_KEYS set, a wrong or malformed bearer key gets 401", async () => {
  const app = createSiftApp();
  for (
    const authorization of ["Bearer k3", "Bearer k1k2", "Bearer k", "k1", "Basic k1", "Bearer "]
  ) {
    const response = await app.request("/v1/search", searchInit({ authorization }), KEYED_ENV);
    assert.equal(response.status, 401, authorization);
  }
});

Deno.test("with API_KEYS set, either key is accepted", async () => {
  const app = createSiftApp();
  for (const key of ["k1", "k2"]) {
    const response = await app.request(
      "/v1/search",
      searchInit({ authorization: `Bearer ${key}` }),
      KEYED_ENV,
    );
    assert.equal(response.status, 200, key);
  }
});

Deno.test("with API_KEYS set, /healthz stays open", async () => {
  const app = createSiftApp();
  const response = await app.request("/healthz", {}, KEYED_ENV);
  assert.equal(response.status, 200);
});

Deno.test("an unknown route gets a 404 JSON error, in the shape of the API its prefix names", async () => {
  const { app, env } = testApp();
  const shapes = [
    ["GET", "/nope", "not_found"],
    // Under /v1/ OpenAI's (its clients raise NotFoundError), under /v2/ Cohere's.
    ["POST", "/v1/nothing", "invalid_request_error"],
    ["POST", "/v2/nothing", undefined],
  ] as const;
  for (const [method, path, type] of shapes) {
    const response = await app.request(path, { method }, env);
    assert.equal(response.status, 404, `${method} ${path}`);
    assert.match(response.headers.get("content-type") ?? "", /^application\/json/);
    const body = await response.json() as Partial<ErrorBody> & { message?: string };
    assert.equal(body.error?.type, type, path);
    assert.equal(typeof (body.error?.message ?? body.message), "string");
  }
});

Deno.test("a body that is not JSON gets 400 `body: must be valid JSON` naming the field and position", async () => {
  const { app, env } = testApp();
  for (const path of ["/v1/search", "/v1/documents", "/v1/fuse", "/v1/answer", "/v1/query"]) {
    const response = await app.request(path, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"query": "unterminated',
    }, env);
    assert.equal(response.status, 400, path);
    assert.deepEqual(await response.json(), {
      error: {
        type: "invalid_request",
        message:
          "body: must be valid JSON (query, line 1, column 11: a string that is never closed)",
      },
    });
  }
});

Deno.test("an internal failure gets a generic 500 without a stack trace", async () => {
  const app = createSiftApp({
    log: {
      location: "/srv/sift/.data/index.log",
      load: () => Promise.reject(new Error("EIO: /srv/sift/.data/index.log")),
      append: () => Promise.resolve(),
      checkpoint: () => Promise.resolve(),
      tailBytes: 0,
      checkpointBytes: 0,
    },
  });
  const response = await withoutErrorLogs(() => app.request("/v1/search", searchInit(), EMPTY_ENV));
  assert.equal(response.status, 500);
  const text = await response.text();
  assert.ok(!leaksInternals(text), text);
  assert.deepEqual(JSON.parse(text), {
    error: { type: "internal_error", message: "Internal server error" },
  });
});

Deno.test("a misconfigured environment gets a 500 that does not echo the config", async () => {
  const app = createSiftApp();
  const response = await withoutErrorLogs(() =>
    app.request("/v1/search", searchInit(), { ...EMPTY_ENV, PORT: "not-a-port" })
  );
  assert.equal(response.status, 500);
  const body: ErrorBody = await response.json();
  assert.equal(body.error.type, "internal_error");
  assert.doesNotMatch(body.error.message, /PORT|not-a-port/);
});

Deno.test({
  name: "an unreadable index log gets a 500 that names no server path",
  async fn() {
    const app = createSiftApp({
      log: {
        location: "/srv/sift/.data/index.log",
        load: () => Promise.reject(new Error("damaged")),
        append: () => Promise.resolve(),
        checkpoint: () => Promise.resolve(),
        tailBytes: 0,
        checkpointBytes: 0,
      },
    });
    const response = await withoutErrorLogs(() =>
      app.request("/v1/search", searchInit(), EMPTY_ENV)
    );
    assert.equal(response.status, 500);
    const body: ErrorBody = await response.json();
    assert.doesNotMatch(body.error.message, /\/srv\/sift|index\.log/);
  },
});

Deno.test("400 errors carry one line per problem and no stack trace", async () => {
  const { post } = testApp();
  const response = await post("/v1/documents", { documents: [{ id: "bad id" }] });
  const text = await response.text();
  assert.equal(response.status, 400);
  assert.ok(!leaksInternals(text), text);
  const body: ErrorBody = JSON.parse(text);
  assert.deepEqual(Object.keys(body), ["error"]);
  assert.deepEqual(Object.keys(body.error).sort(), ["message", "type"]);
});

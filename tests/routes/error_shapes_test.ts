/**
 * Each route answers errors in the shape its callers' clients read: OpenAI's
 * `{error: {message, type, param, code}}` on the OpenAI-compatible routes,
 * Cohere's `{message}` on `/v2/rerank`, sift's `{error: {type, message}}`
 * elsewhere; and a known path asked with the wrong method is a 405 with
 * `Allow`, in the same shape.
 */
import assert from "node:assert/strict";
import { EMPTY_ENV, type ErrorBody, testApp } from "./helpers.ts";

type OpenAIError = {
  error: { message: string; type: string; param: string | null; code: string | null };
};

const OPENAI_ROUTES = ["/v1/chat/completions", "/v1/embeddings", "/v1/responses"];

Deno.test("/v1/embeddings errors are OpenAI's, with param naming the field", async () => {
  const { post } = testApp();
  const cases: [unknown, string | null, RegExp][] = [
    [{ input: "" }, "input", /^input: /],
    [{ input: "a", dimensions: 0 }, "dimensions", /^dimensions: must be at least 1/],
    [{ input: "a", encoding_format: "int8" }, "encoding_format", /^encoding_format: /],
    [{ input: "a", temprature: 1 }, null, /^Unrecognized request argument supplied: temprature/],
  ];
  for (const [body, param, message] of cases) {
    const response = await post("/v1/embeddings", body);
    assert.equal(response.status, 400, JSON.stringify(body));
    const { error } = await response.json() as OpenAIError;
    assert.deepEqual(Object.keys(error).sort(), ["code", "message", "param", "type"]);
    assert.equal(error.type, "invalid_request_error");
    assert.equal(error.param, param, error.message);
    assert.equal(error.code, null);
    assert.match(error.message, message);
  }
});

Deno.test("/v1/responses errors are OpenAI's, with param naming the field", async () => {
  const { post } = testApp();
  const cases: [unknown, number, string | null, RegExp][] = [
    [{ model: "sift-none" }, 400, "input", /^input: /],
    [{ model: "sift-none", input: "" }, 400, "input.0.content", /must not be empty/],
    [
      { model: "sift-none", input: [{ role: "user", content: [{ type: "input_image" }] }] },
      400,
      "input.0.content.0.type",
      /only "input_text" and "output_text" parts/,
    ],
    [{ model: "sift-none", input: [{ role: "assistant", content: "hi" }] }, 400, "input", /user/],
    [{ model: "sift-none", input: "q", conversation: "conv_1" }, 400, "conversation", /keeps no/],
    [{ model: "sift-none", input: "q", inptu: 1 }, 400, null, /^Unrecognized request argument/],
    [{ model: "gpt-5", input: "q" }, 404, "model", /does not exist/],
  ];
  for (const [body, status, param, message] of cases) {
    const response = await post("/v1/responses", body);
    assert.equal(response.status, status, JSON.stringify(body));
    const { error } = await response.json() as OpenAIError;
    assert.equal(error.param, param, error.message);
    assert.match(error.message, message);
  }
  // Tool calls and their outputs pass unread, as chat's tool messages do.
  const withTools = await post("/v1/responses", {
    model: "sift-none",
    input: [
      { type: "function_call", call_id: "c1", name: "f", arguments: "{}" },
      { type: "function_call_output", call_id: "c1", output: "x" },
      { type: "message", role: "user", content: "What is lava?" },
    ],
  });
  assert.equal(withTools.status, 200, await withTools.clone().text());
});

Deno.test("a missing key is a 401 in each route's own shape", async () => {
  const { post } = testApp({ ...EMPTY_ENV, API_KEYS: "key-one" });
  for (const path of OPENAI_ROUTES) {
    const response = await post(path, {});
    assert.equal(response.status, 401, path);
    const { error } = await response.json() as OpenAIError;
    assert.equal(error.type, "authentication_error", path);
    assert.equal(error.param, null);
  }
  const cohere = await post("/v2/rerank", {});
  assert.equal(cohere.status, 401);
  assert.equal(typeof (await cohere.json() as { message: string }).message, "string");
  const native = await post("/v1/search", {});
  assert.equal((await native.json() as ErrorBody).error.type, "unauthorized");
});

Deno.test("/v2/rerank errors are Cohere's {message}", async () => {
  const { post } = testApp();
  const response = await post("/v2/rerank", { model: "rerank-v3.5", query: "q", documents: ["a"] });
  assert.equal(response.status, 400);
  const body = await response.json() as Record<string, unknown>;
  assert.deepEqual(Object.keys(body), ["message"]);
  assert.match(body.message as string, /^model: unknown model "rerank-v3\.5"/);
});

Deno.test("a known path with the wrong method is a 405 with Allow, in the path's shape", async () => {
  const { app, env } = testApp();
  const call = (method: string, path: string) => app.request(path, { method }, env);

  for (
    const [method, path, allow] of [
      ["GET", "/v1/query", "POST"],
      ["PUT", "/v1/documents", "GET, HEAD, POST"],
      ["POST", "/v1/documents/abc", "DELETE, GET, HEAD"],
      ["DELETE", "/healthz", "GET, HEAD"],
    ] as const
  ) {
    const response = await call(method, path);
    assert.equal(response.status, 405, `${method} ${path}`);
    assert.equal(response.headers.get("allow"), allow, `${method} ${path}`);
    const { error } = await response.json() as ErrorBody;
    assert.equal(error.type, "method_not_allowed");
    assert.match(error.message, new RegExp(`does not take ${method}; it takes ${allow}`));
  }

  for (const path of OPENAI_ROUTES) {
    const response = await call("GET", path);
    assert.equal(response.status, 405, path);
    assert.equal(response.headers.get("allow"), "POST");
    const { error } = await response.json() as OpenAIError;
    assert.equal(error.type, "invalid_request_error");
    assert.equal(error.code, "method_not_allowed");
  }
  const models = await call("POST", "/v1/models");
  assert.equal(models.headers.get("allow"), "GET, HEAD");
  assert.equal((await models.json() as OpenAIError).error.code, "method_not_allowed");

  const cohere = await call("GET", "/v2/rerank");
  assert.equal(cohere.status, 405);
  assert.equal(cohere.headers.get("allow"), "POST");
  assert.match((await cohere.json() as { message: string }).message, /does not take GET/);

  const unknown = await call("GET", "/v1/nothing");
  assert.equal(unknown.status, 404);
  assert.equal(unknown.headers.get("allow"), null);
});

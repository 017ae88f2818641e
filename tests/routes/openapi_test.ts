/**
 * `GET /openapi.json`: a valid OpenAPI 3.1 document that lists every route of
 * the all-in-one app, the same document from the orchestrator deployed alone
 * (its forwarded routes described by their owners), and an API page (docs/api.md) that names
 * every path in it.
 */
import assert from "node:assert/strict";
import { validate } from "@readme/openapi-parser";
import { createSiftApp } from "../../app.ts";
import { createAnswerServer } from "../../functions/answer/server.ts";
import { createEmbedServer } from "../../functions/embed/server.ts";
import { createEvaluateServer } from "../../functions/evaluate/server.ts";
import { createFuseServer } from "../../functions/fuse/server.ts";
import { createGenerateRubricServer } from "../../functions/generate-rubric/server.ts";
import { createJudgeServer } from "../../functions/judge/server.ts";
import { createOrchestratorServer } from "../../functions/orchestrator/server.ts";
import { createRerankServer } from "../../functions/rerank/server.ts";
import type { OpenApiDocument } from "../../shared/http/openapi-document.ts";
import { routesOf } from "../../compose/server.ts";
import { Runtime } from "../../compose/runtime.ts";
import { EMPTY_ENV, type ErrorBody, withoutErrorLogs } from "./helpers.ts";

type Fetcher = {
  fetch(request: Request, env: Record<string, unknown>): Promise<Response> | Response;
};

async function documentFrom(app: Fetcher, env: Record<string, unknown> = EMPTY_ENV) {
  const response = await app.fetch(new Request("http://sift.test/openapi.json"), env);
  assert.equal(response.status, 200, await response.clone().text());
  return await response.json() as OpenApiDocument;
}

/** The validator's verdict and its error messages. */
async function check(document: OpenApiDocument): Promise<{ valid: boolean; errors: string[] }> {
  const result = await validate(structuredClone(document) as Parameters<typeof validate>[0]);
  return {
    valid: result.valid,
    errors: result.valid ? [] : result.errors.map((error) => error.message),
  };
}

/** `METHOD /path` of every operation, paths in OpenAPI's `{param}` form. */
function operations(document: OpenApiDocument): string[] {
  return Object.entries(document.paths)
    .flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`))
    .sort();
}

Deno.test("GET /openapi.json is an OpenAPI 3.1 document that a validator accepts", async () => {
  const document = await documentFrom(createSiftApp());
  assert.equal(document.openapi, "3.1.0");
  assert.deepEqual(await check(document), { valid: true, errors: [] });
  // Relative servers, bearer auth everywhere but /healthz.
  assert.deepEqual(document.servers, [{ url: "/" }]);
  assert.deepEqual(document.security, [{ bearer: [] }]);
  assert.deepEqual(document.components?.securitySchemes?.bearer, {
    type: "http",
    scheme: "bearer",
    description: "One of the server's `API_KEYS`; not checked when `API_KEYS` is unset",
  });
  assert.deepEqual((document.paths["/healthz"]?.get as { security: unknown }).security, []);
});

Deno.test("the validator refuses a document with an undeclared path parameter or a repeated operationId", async () => {
  const document = structuredClone(await documentFrom(createSiftApp()));
  const remove = document.paths["/v1/documents/{id}"]?.delete as { parameters: { in: string }[] };
  remove.parameters = remove.parameters.filter((parameter) => parameter.in !== "path");
  (document.paths["/v1/fuse"]?.post as { operationId: string }).operationId = "postV1Search";
  const result = await check(document);
  assert.equal(result.valid, false);
  const messages = result.errors.join("\n");
  assert.match(messages, /\/v1\/documents\/\{id\}.*missing path parameter/);
  assert.match(messages, /operationId `postV1Search` is duplicated/);
});

Deno.test("every route of the all-in-one app is in the document, with a body schema and a 2xx reply", async () => {
  const app = createSiftApp();
  const document = await documentFrom(app);
  const routes = (await routesOf(app))
    // Middleware (`app.use`) registers as ALL on a wildcard path: not a route.
    .filter((route) => !(route.method === "ALL" && route.path.includes("*")))
    .map((route) => `${route.method} ${route.path.replace(/:([A-Za-z_]\w*)/g, "{$1}")}`);
  const documented = new Set(operations(document));
  const missing = [...new Set(routes)].filter((route) => !documented.has(route));
  assert.deepEqual(missing, []);
  assert.ok(documented.size >= 28, [...documented].join("\n"));
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const { requestBody, responses } = operation as {
        requestBody?: { content: Record<string, { schema: unknown }> };
        responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
      };
      if (method === "post") {
        // JSON, or for an upload that takes nothing else (OpenAI's files.create), multipart.
        const content = requestBody?.content ?? {};
        const schema = content["application/json"] ?? content["multipart/form-data"];
        assert.ok(schema?.schema, `${path}: no body schema`);
      }
      const success = Object.entries(responses).filter(([status]) => status.startsWith("2"));
      assert.ok(success.length > 0, `${method} ${path}: no 2xx`);
      for (const [status, response] of success) {
        assert.ok(Object.keys(response.content ?? {}).length > 0, `${path} ${status}: no content`);
      }
    }
  }
});

Deno.test("GET /openapi.json needs the API key, like every route but /healthz", async () => {
  const app = createSiftApp();
  const env = { ...EMPTY_ENV, API_KEYS: "key-1" };
  assert.equal((await app.request("/openapi.json", {}, env)).status, 401);
  const headers = { authorization: "Bearer key-1" };
  assert.equal((await app.request("/openapi.json", { headers }, env)).status, 200);
  assert.equal((await app.request("/healthz", {}, env)).status, 200);
});

/** Each function deployed alone, reached from the orchestrator as a service binding. */
function bindings() {
  const runtime = () => new Runtime();
  const servers = {
    EMBED: createEmbedServer(runtime()),
    FUSE: createFuseServer(runtime()),
    GENERATE_RUBRIC: createGenerateRubricServer(runtime()),
    RERANK: createRerankServer(runtime()),
    ANSWER: createAnswerServer(runtime()),
    JUDGE: createJudgeServer(runtime()),
    EVALUATE: createEvaluateServer(runtime()),
  };
  const asked: string[] = [];
  const env: Record<string, unknown> = { ...EMPTY_ENV };
  for (const [name, server] of Object.entries(servers)) {
    env[name] = {
      fetch: (request: Request) => {
        asked.push(`${name} ${new URL(request.url).pathname}`);
        return server.fetch(request, EMPTY_ENV);
      },
    };
  }
  return { env, asked };
}

Deno.test("the orchestrator alone describes the whole API: its own routes and its owners' for the rest", async () => {
  const whole = await documentFrom(createSiftApp());
  const { env, asked } = bindings();
  const alone = await documentFrom(createOrchestratorServer(new Runtime()), env);
  assert.deepEqual(operations(alone), operations(whole));
  // A forwarded route is described exactly as its owner describes it.
  assert.deepEqual(alone.paths["/v1/search"], whole.paths["/v1/search"]);
  assert.deepEqual(alone.paths["/v1/documents/{id}"], whole.paths["/v1/documents/{id}"]);
  assert.deepEqual(await check(alone), { valid: true, errors: [] });
  assert.deepEqual(asked.sort(), [
    "ANSWER /openapi.json",
    "EMBED /openapi.json",
    "EVALUATE /openapi.json",
    "FUSE /openapi.json",
    "GENERATE_RUBRIC /openapi.json",
    "JUDGE /openapi.json",
    "RERANK /openapi.json",
  ]);
});

Deno.test("the orchestrator alone answers 502 naming the function whose document it cannot read", async () => {
  const { env } = bindings();
  env.JUDGE = { fetch: () => Promise.reject(new TypeError("connection refused")) };
  const response = await withoutErrorLogs(() =>
    createOrchestratorServer(new Runtime()).request("/openapi.json", {}, env)
  );
  assert.equal(response.status, 502);
  assert.match(((await response.json()) as ErrorBody).error.message, /judge step failed/);
});

Deno.test("docs/api.md names every path of the document and links /openapi.json", async () => {
  const document = await documentFrom(createSiftApp());
  const readme = await Deno.readTextFile(new URL("../../docs/api.md", import.meta.url));
  // The page writes parameters hono's way (`/v1/documents/:id`).
  const unnamed = Object.keys(document.paths)
    .map((path) => path.replace(/\{(\w+)\}/g, ":$1"))
    .filter((path) =>
      !new RegExp(`${path.replaceAll(/[.*+?^$()|[\]\\]/g, "\\$&")}\\b`).test(readme)
    );
  assert.deepEqual(unnamed, []);
  assert.match(readme, /\[`?\/openapi\.json`?\]\(/);
});

import assert from "node:assert/strict";
import { Hono } from "hono";
import { loadVendor } from "hono-openapi";
import { z } from "zod";
import { describe, json } from "./openapi.ts";
import { documentOf, type OpenApiDocument } from "./openapi-document.ts";
import type { AppEnv } from "./app-env.ts";

type Operation = {
  parameters?: { name: string; in: string; required: boolean; schema: unknown }[];
  responses: Record<string, { $ref?: string; content?: Record<string, { schema: unknown }> }>;
  security?: unknown[];
};

async function operationOf(route: Parameters<typeof describe>[0]): Promise<Operation> {
  const app = new Hono<AppEnv>();
  app.post("/things/:id", describe(route), (c) => c.json({}));
  const document: OpenApiDocument = await documentOf(app)();
  return document.paths["/things/{id}"]?.post as Operation;
}

const thing = z.object({ name: z.string() });

Deno.test("describe() adds the errors a route can answer: 400/413/415 with a body, 401/429 unless open, 403 always", async () => {
  const withBody = await operationOf({
    tag: "t",
    summary: "s",
    body: thing,
    responses: { 201: json("Made", thing) },
    errors: [404],
  });
  assert.deepEqual(Object.keys(withBody.responses), [
    "201",
    "400",
    "401",
    "403",
    "404",
    "413",
    "415",
    "429",
    "500",
  ]);
  assert.equal(withBody.responses["404"]?.$ref, "#/components/responses/Error");
  assert.equal(withBody.security, undefined);

  const open = await operationOf({
    tag: "t",
    summary: "s",
    open: true,
    responses: { 200: json("Up", thing) },
  });
  assert.deepEqual(Object.keys(open.responses), ["200", "403", "500"]);
  assert.deepEqual(open.security, []);
});

Deno.test("describe() writes errors in another API's shape when the route answers in it", async () => {
  const operation = await operationOf({
    tag: "t",
    summary: "s",
    responses: { 200: json("Ok", thing) },
    errorBody: z.object({ error: z.object({ code: z.string().nullable() }) }),
  });
  const schema = operation.responses["401"]?.content?.["application/json"]?.schema;
  assert.deepEqual(schema, {
    type: "object",
    properties: {
      error: {
        type: "object",
        properties: { code: { type: ["string", "null"] } },
        required: ["code"],
      },
    },
    required: ["error"],
  });
});

Deno.test("describe() turns path names, headers and a zod query schema into parameters", async () => {
  const operation = await operationOf({
    tag: "t",
    summary: "s",
    params: { id: "The thing's id" },
    headers: { "x-signature": "Who signed it" },
    query: z.object({
      namespace: z.string().regex(/^[a-z]+$/).default("default"),
      format: z.enum(["html", "json"]).meta({ description: "How to answer" }),
    }),
    responses: { 200: json("Ok", thing) },
  });
  assert.deepEqual(operation.parameters, [
    {
      name: "id",
      in: "path",
      required: true,
      description: "The thing's id",
      schema: { type: "string" },
    },
    {
      name: "x-signature",
      in: "header",
      required: true,
      description: "Who signed it",
      schema: { type: "string" },
    },
    {
      name: "namespace",
      in: "query",
      required: false,
      schema: { default: "default", type: "string", pattern: "^[a-z]+$" },
    },
    {
      name: "format",
      in: "query",
      required: true,
      description: "How to answer",
      schema: { type: "string", enum: ["html", "json"], description: "How to answer" },
    },
  ]);
});

Deno.test("documentOf() converts no schema until the document is asked for, then builds it once", async () => {
  let conversions = 0;
  loadVendor("sift-openapi-test", {
    toOpenAPISchema: () => {
      conversions++;
      return Promise.resolve({ type: "object" });
    },
  });
  // A Standard Schema whose conversions are counted.
  const counted = {
    "~standard": {
      version: 1,
      vendor: "sift-openapi-test",
      validate: (value: unknown) => ({ value }),
    },
  } as unknown as z.ZodType;
  const app = new Hono<AppEnv>();
  app.post(
    "/counted",
    describe({ tag: "t", summary: "s", body: counted, responses: { 200: json("Ok", counted) } }),
    (c) => c.json({}),
  );
  const build = documentOf(app);
  assert.equal(conversions, 0);
  const first = await build();
  assert.equal(conversions, 2);
  assert.equal(await build(), first);
  assert.equal(conversions, 2);
});

/**
 * Unknown fields are refused everywhere a body is validated (#19): every
 * POST route, sent a misspelled copy of each field its OpenAPI document
 * lists (top level and nested options objects), answers 400 naming it and,
 * where a name is long enough to tell, the field that was meant.
 */
import assert from "node:assert/strict";
import { EMPTY_ENV, type ErrorBody, errorMessageOf, testApp } from "./helpers.ts";

type JsonSchema = {
  type?: string;
  properties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
  $ref?: string;
};
type Operation = { requestBody?: { content: Record<string, { schema: JsonSchema }> } };

/** Routes whose body is checked only after something else: named, not silently skipped. */
const CHECKED_FIRST: Record<string, string> = {
  "/v1/webhooks/documents": "a signature (401 unsigned); its body is /v1/documents' schema",
  "/mcp": "JSON-RPC, checked by the MCP SDK; tool arguments have schemas of their own",
  "/v1/files": "multipart/form-data only (415 for JSON); an unknown form part is a 400 naming it",
};
/** Routes that speak OpenAI's errors for unknown top-level parameters. */
const OPENAI_ROUTES = new Set(["/v1/chat/completions", "/v1/embeddings", "/v1/responses"]);
const isOpenAIRoute = (path: string) =>
  OPENAI_ROUTES.has(path) || path.startsWith("/v1/vector_stores");

/** `query` → `qeury`: a swap of two letters, the commonest slip; short names get a letter more. */
function misspell(name: string, siblings: readonly string[]): string {
  const candidates = [
    name.length >= 3
      ? name.slice(0, 1) + name.slice(2, 3) + name.slice(1, 2) + name.slice(3)
      : name + name.slice(-1),
    name.slice(0, -1),
    name + "s",
    name + "x",
  ];
  return candidates.find((candidate) => candidate && !siblings.includes(candidate))!;
}

/** Every field path of the strict objects in a body schema, following objects (not arrays). */
function fieldPaths(
  schema: JsonSchema,
  prefix: string[] = [],
): { parent: string[]; name: string; siblings: string[] }[] {
  const objects = [schema, ...(schema.anyOf ?? []), ...(schema.allOf ?? [])]
    .filter((candidate) => candidate.properties && candidate.additionalProperties === false);
  return objects.flatMap((object) => {
    const siblings = Object.keys(object.properties!);
    return siblings.flatMap((name) => [
      { parent: prefix, name, siblings },
      ...fieldPaths(object.properties![name]!, [...prefix, name]),
    ]);
  });
}

function nested(parent: string[], leaf: Record<string, unknown>): Record<string, unknown> {
  return parent.reduceRight((inner, key) => ({ [key]: inner }), leaf);
}

Deno.test("every POST route refuses a misspelled copy of each documented field, naming it", async () => {
  // Jobs check their signing key before the body.
  const secret = `whsec_${btoa(String.fromCharCode(...new Uint8Array(32).fill(7)))}`;
  const { app, env, post } = testApp({ ...EMPTY_ENV, WEBHOOK_SECRET: secret });
  const document = await (await app.request("/openapi.json", {}, env)).json() as {
    paths: Record<string, Record<string, Operation>>;
  };
  const routes = Object.entries(document.paths)
    .filter(([path, item]) => item.post?.requestBody && !Object.hasOwn(CHECKED_FIRST, path));
  assert.ok(routes.length >= 20, `${routes.length} routes`);
  let sent = 0;
  for (const [path, item] of routes) {
    const schema = item.post!.requestBody!.content["application/json"]!.schema;
    const fields = fieldPaths(schema);
    assert.ok(fields.length > 0, `${path}: its body is a strict object`);
    for (const { parent, name, siblings } of fields) {
      const wrong = misspell(name, siblings);
      const url = path.replace(/\{[^}]+\}/g, "x");
      const response = await post(url, nested(parent, { [wrong]: 1 }));
      const error = { message: errorMessageOf(await response.json()) };
      const label = `${path} ${[...parent, wrong].join(".")}: ${error.message}`;
      assert.equal(response.status, 400, label);
      const full = [...parent, wrong].join(".");
      if (isOpenAIRoute(path) && parent.length === 0) {
        assert.ok(
          error.message.startsWith(`Unrecognized request argument supplied: ${wrong}`),
          label,
        );
      } else {
        assert.ok(error.message.includes(`unknown field "${full}"`), label);
      }
      if (name.length >= 4) {
        assert.ok(error.message.includes(`"${[...parent, name].join(".")}"`), label);
      }
      sent++;
    }
  }
  assert.ok(sent > 100, `${sent} misspellings sent`);
});

Deno.test("an option given beside its options object is pointed to it", async () => {
  const { post } = testApp();
  const cases: [string, unknown, string][] = [
    [
      "/v1/rerank",
      { query: "q", documents: ["a"], strategy: "item", variant: "A_s" },
      'unknown field "variant"; it goes in "item.variant"',
    ],
    [
      "/v1/query",
      { query: "q", top_k: 3 },
      'unknown field "top_k"; it goes in "pipeline.retrieval.top_k"',
    ],
    [
      "/v1/query",
      { query: "q", pipeline: { retrieval: { topk: 3 } } },
      'unknown field "pipeline.retrieval.topk"; did you mean "pipeline.retrieval.top_k"?',
    ],
    ["/v1/search", { query: "q", topk: 1 }, 'unknown field "topk"; did you mean "top_k"?'],
    [
      "/v1/rerank",
      { query: "q", documents: ["a"], strategy: "one-turn", topn: 1 },
      'unknown field "topn"; did you mean "top_n"?',
    ],
  ];
  for (const [path, body, message] of cases) {
    const response = await post(path, body);
    assert.equal(response.status, 400);
    assert.equal((await response.json() as ErrorBody).error.message, message);
  }
});

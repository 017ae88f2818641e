import assert from "node:assert/strict";
import { jsonSchemaValidator } from "../../../shared/structured-output/validator.ts";
import { valueOf } from "./schema-value.ts";

const ANSWER = "RRF merges rankings [1]. It uses k = 60 [2].";
const SENTENCES = ["RRF merges rankings [1].", "It uses k = 60 [2]."];

function valueFor(root: Record<string, unknown>, answer = ANSWER) {
  return valueOf(root, { answer, sentences: answer ? SENTENCES : [], root });
}

/** Schemas of the shapes zod, Pydantic and hand-written clients send. */
const SCHEMAS: Record<string, Record<string, unknown>> = {
  flat: {
    type: "object",
    properties: {
      summary: { type: "string", minLength: 5, maxLength: 20 },
      count: { type: "integer", minimum: 3, maximum: 9 },
      score: { type: "number", exclusiveMinimum: 0, maximum: 1 },
      ok: { type: "boolean" },
      kind: { type: "string", enum: ["x", "y"] },
      fixed: { const: "v1" },
    },
    required: ["summary", "count", "score", "ok", "kind", "fixed"],
    additionalProperties: false,
  },
  lists: {
    type: "object",
    properties: {
      points: { type: "array", items: { type: "string" }, minItems: 3, maxItems: 5 },
      none: { type: "array", items: { type: "number" }, maxItems: 0 },
      people: {
        type: "array",
        items: {
          type: "object",
          properties: { name: { type: "string" }, email: { type: "string", format: "email" } },
          required: ["name", "email"],
        },
      },
    },
    required: ["points", "none", "people"],
  },
  nullableAndUnions: {
    type: "object",
    properties: {
      maybe: { type: ["string", "null"] },
      either: { anyOf: [{ type: "null" }, { type: "integer", minimum: 2 }] },
      when: { type: "string", format: "date-time" },
      id: { type: "string", format: "uuid" },
    },
    required: ["maybe", "either", "when", "id"],
  },
  recursive: {
    type: "object",
    properties: { root: { $ref: "#/$defs/node" } },
    required: ["root"],
    $defs: {
      node: {
        type: "object",
        properties: {
          label: { type: "string" },
          children: { type: "array", items: { $ref: "#/$defs/node" } },
        },
        required: ["label", "children"],
      },
    },
  },
  free: { type: "object" },
};

for (const [name, schema] of Object.entries(SCHEMAS)) {
  Deno.test(`the offline structured answer fits the ${name} schema, answered or not`, () => {
    const validator = jsonSchemaValidator(schema);
    for (const answer of [ANSWER, ""]) {
      const value = valueFor(schema, answer);
      const checked = validator.safeParse(value);
      assert.ok(checked.success, `${JSON.stringify(value)}: ${checked.error?.message}`);
      assert.deepEqual(valueFor(schema, answer), value, "deterministic");
    }
  });
}

Deno.test("the offline structured answer puts the answer in strings and a sentence in each list item", () => {
  const value = valueFor(SCHEMAS.lists!) as { points: string[] };
  assert.deepEqual(value.points, [...SENTENCES, SENTENCES[1]]);
  assert.deepEqual(valueFor(SCHEMAS.free!), { answer: ANSWER });
  const flat = valueFor(SCHEMAS.flat!) as { summary: string; ok: boolean };
  assert.equal(flat.summary, ANSWER.slice(0, 20));
  assert.equal(flat.ok, true);
  assert.equal((valueFor(SCHEMAS.flat!, "") as { ok: boolean }).ok, false);
});

import { z } from "zod";
import { jsonSchemaValidator } from "./validator.ts";

/** How large a caller's JSON Schema may be, serialised: OpenAI's own bound is of this order. */
export const MAX_SCHEMA_CHARS = 64 * 1024;
/** How deep a caller's JSON Schema may nest (objects and arrays): bounds every walk over it. */
export const MAX_SCHEMA_DEPTH = 32;

/** The deepest nesting of objects and arrays in a JSON value, counted without recursion. */
function depthOf(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node !== "object" || node === null) continue;
    deepest = Math.max(deepest, depth);
    if (deepest > MAX_SCHEMA_DEPTH) return deepest;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/**
 * A caller's JSON Schema for the answer: an object schema (as OpenAI's
 * structured output requires), bounded in size and depth, that sift can turn
 * into a validator (local `$ref`s only). A schema that fails any of these is
 * a 400 naming what is wrong, before any work starts.
 */
export const answerJsonSchema = z.record(z.string(), z.unknown(), {
  error: "must be a JSON Schema object",
}).superRefine((schema, context) => {
  if (JSON.stringify(schema).length > MAX_SCHEMA_CHARS) {
    context.addIssue({ code: "custom", message: `must be at most ${MAX_SCHEMA_CHARS} characters` });
    return;
  }
  if (depthOf(schema) > MAX_SCHEMA_DEPTH) {
    context.addIssue({ code: "custom", message: `must nest at most ${MAX_SCHEMA_DEPTH} levels` });
    return;
  }
  if (schema.type !== "object") {
    context.addIssue({
      code: "custom",
      message: 'must describe an object (type: "object"), as OpenAI\'s structured output requires',
    });
    return;
  }
  try {
    jsonSchemaValidator(schema);
  } catch (error) {
    context.addIssue({
      code: "custom",
      message: `is not a JSON Schema sift can check: ${
        error instanceof Error ? error.message.slice(0, 200) : "unreadable"
      }`,
    });
  }
});

/**
 * The format an answer is asked in, as `/v1/answer` takes it (`json_schema`)
 * and chat's `response_format` and Responses' `text.format` become: the
 * schema's name (OpenAI's rule: letters, digits, `_`, `-`, at most 64), the
 * schema, and whether the caller asked for strict adherence.
 */
export const answerFormatSchema = z.strictObject({
  name: z.string({ error: "must be a string" }).regex(/^[A-Za-z0-9_-]{1,64}$/, {
    error: "must be 1-64 letters, digits, _ or -",
  }),
  description: z.string({ error: "must be a string" }).max(2_000).optional(),
  schema: answerJsonSchema,
  strict: z.boolean({ error: "must be a boolean" }).optional(),
});

export type AnswerFormat = z.infer<typeof answerFormatSchema>;

/** `json_object`'s format: any JSON object, no schema beyond that. */
export const JSON_OBJECT_FORMAT: AnswerFormat = {
  name: "json_object",
  schema: { type: "object" },
};

import { z } from "zod";

/** Keywords sift leaves to the provider: a caller's regular expression never runs here. */
const UNCHECKED_KEYWORDS = new Set(["pattern", "patternProperties"]);

/** A copy of `schema` without `UNCHECKED_KEYWORDS` (the schema is bounded in depth already). */
function withoutUncheckedKeywords(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutUncheckedKeywords);
  if (typeof schema !== "object" || schema === null) return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key]) => !UNCHECKED_KEYWORDS.has(key))
      .map(([key, value]) => [key, withoutUncheckedKeywords(value)]),
  );
}

/**
 * A zod validator for a caller's JSON Schema (zod's `fromJSONSchema`: no code
 * generation, so it runs on Workers too). `pattern` and `patternProperties`
 * are left out: a caller's regular expression run against a model's reply
 * could backtrack for seconds on this server's one event loop. The provider
 * still gets them, and enforces them in strict mode. Throws when the schema
 * cannot be read (an unknown type, a `$ref` to nothing).
 *
 * @example
 * jsonSchemaValidator({ type: "object", properties: { a: { type: "number" } } })
 *   .safeParse({ a: 1 }).success; // true
 */
export function jsonSchemaValidator(schema: Record<string, unknown>): z.ZodType {
  return z.fromJSONSchema(
    withoutUncheckedKeywords(schema) as Parameters<typeof z.fromJSONSchema>[0],
  );
}

/** A failed check in words a model (or a caller) can act on: `points: Too small: ...; kind: ...`. */
export function describeProblems(error: z.ZodError, max = 5): string {
  return error.issues.slice(0, max).map((issue) =>
    `${issue.path.join(".") || "(the object)"}: ${issue.message}`
  ).join("; ");
}

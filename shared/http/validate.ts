import type { Context } from "hono";
import type { z } from "zod";
import { InvalidRequestError } from "../errors.ts";
import { readBodyBytes } from "./body.ts";
import { requireJsonContentType } from "./content-type.ts";
import { unknownFieldMessage } from "./unknown-fields.ts";

/**
 * One line per problem, each naming the field: `documents.0.text: must not be
 * empty`. Unknown fields come first, each with the field probably meant when
 * `schema` (the one that failed) has one close to it.
 */
export function describeIssues(error: z.ZodError, schema?: z.ZodType): string {
  const unknown = error.issues.flatMap((issue) =>
    issue.code === "unrecognized_keys"
      ? issue.keys.map((key) =>
        schema
          ? unknownFieldMessage(schema, issue.path, key)
          : `unknown field "${[...issue.path.map(String), key].join(".")}"`
      )
      : []
  );
  const others = error.issues
    .filter((issue) => issue.code !== "unrecognized_keys")
    .map((issue) => `${issue.path.length ? issue.path.join(".") : "body"}: ${issue.message}`);
  return [...unknown, ...others].slice(0, 5).join("; ");
}

/**
 * OpenAI's message for unknown top-level parameters, `Unrecognized request
 * argument supplied: temprature`, then the parameter probably meant; none
 * when the body has no unknown top-level field.
 */
export function unrecognizedArguments(error: z.ZodError, schema: z.ZodType): string | undefined {
  const names = error.issues.flatMap((issue) =>
    issue.code === "unrecognized_keys" && issue.path.length === 0 ? issue.keys : []
  );
  if (names.length === 0) return undefined;
  const hints = names.map((name) => unknownFieldMessage(schema, [], name))
    .filter((message) => message.includes(";"))
    .map((message) => message.slice(message.indexOf(";") + 2));
  return `Unrecognized request argument${names.length > 1 ? "s" : ""} supplied: ` +
    names.join(", ") + (hints.length ? ` (${hints.join("; ")})` : "");
}

/** Checks a body of an OpenAI-compatible route: unknown top-level fields in OpenAI's words. */
export function validateOpenAI<T>(schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new InvalidRequestError(
    unrecognizedArguments(parsed.error, schema) ?? describeIssues(parsed.error, schema),
  );
}

/**
 * Reads a JSON body no larger than `maxBytes` and validates it. Not JSON is
 * 415; too large is 413 (checked on the header first, then while reading);
 * bad JSON or a bad field is 400 naming the field.
 */
export async function readJson<T>(
  c: Context,
  schema: z.ZodType<T>,
  options: { maxBytes: number },
): Promise<T> {
  return validate(schema, await readRawJson(c, options));
}

/** Checks a value against a schema; 400 naming the field when it does not fit. */
export function validate<T>(schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new InvalidRequestError(describeIssues(parsed.error, schema));
  return parsed.data;
}

/**
 * The body as parsed JSON, not yet validated: 415 unless its content type is
 * JSON, 413 as soon as the bytes read pass `maxBytes` (the rest is never read).
 */
export async function readRawJson(c: Context, options: { maxBytes: number }): Promise<unknown> {
  requireJsonContentType(c.req.raw);
  const raw = await readBodyBytes(c.req.raw, options.maxBytes);
  try {
    return JSON.parse(new TextDecoder().decode(raw));
  } catch {
    throw new InvalidRequestError("body: must be valid JSON");
  }
}

import type { Context } from "hono";
import type { z } from "zod";
import { InvalidRequestError } from "../errors.ts";
import { readBodyBytes } from "./body.ts";
import { requireJsonContentType } from "./content-type.ts";

/** One line per problem, each naming the field: `documents.0.text: must not be empty`. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length ? issue.path.join(".") : "body"}: ${issue.message}`)
    .join("; ");
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
  if (!parsed.success) throw new InvalidRequestError(describeIssues(parsed.error));
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

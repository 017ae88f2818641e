import type { Context } from "hono";
import type { z } from "zod";
import { InvalidRequestError, PayloadTooLargeError } from "../errors.ts";

/** One line per problem, each naming the field: `documents.0.text: must not be empty`. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length ? issue.path.join(".") : "body"}: ${issue.message}`)
    .join("; ");
}

/**
 * Reads a JSON body no larger than `maxBytes` and validates it. Too large is
 * 413 (checked on the header first, then on the bytes actually read), bad
 * JSON or a bad field is 400 naming the field.
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

/** The body as parsed JSON, size-checked, not yet validated. */
export async function readRawJson(c: Context, options: { maxBytes: number }): Promise<unknown> {
  const declared = Number(c.req.header("content-length") ?? "0");
  const tooLarge = () =>
    new PayloadTooLargeError(`The request body exceeds the ${formatBytes(options.maxBytes)} limit`);
  if (declared > options.maxBytes) throw tooLarge();
  const raw = await c.req.arrayBuffer();
  if (raw.byteLength > options.maxBytes) throw tooLarge();
  try {
    return JSON.parse(new TextDecoder().decode(raw));
  } catch {
    throw new InvalidRequestError("body: must be valid JSON");
  }
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MiB` : `${bytes / 1024} KiB`;
}

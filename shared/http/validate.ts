import type { Context } from "hono";
import type { z } from "zod";
import { InvalidRequestError } from "../errors.ts";
import { readBodyBytes } from "./body.ts";
import { requireJsonContentType } from "./content-type.ts";
import { jsonSyntaxError } from "./json-syntax.ts";
import { decodeUtf8Body } from "./utf8.ts";
import { unknownFieldMessage } from "./unknown-fields.ts";

type Issue = z.core.$ZodIssue;
type UnknownField = { path: PropertyKey[]; key: string };

/**
 * The unknown fields among the issues: zod's `unrecognized_keys`, and inside a
 * union that failed every option, the keys every object option refused
 * (`dataset: {qeustions}` against `{questions}` or `{name}`).
 */
function unknownFieldsOf(issues: readonly Issue[], prefix: PropertyKey[] = []): UnknownField[] {
  return issues.flatMap((issue): UnknownField[] => {
    const path = [...prefix, ...issue.path];
    if (issue.code === "unrecognized_keys") return issue.keys.map((key) => ({ path, key }));
    if (issue.code !== "invalid_union") return [];
    const objectOptions = issue.errors.filter((option) =>
      !option.some((inner) => inner.code === "invalid_type" && inner.path.length === 0)
    );
    const perOption = objectOptions.map((option) => unknownFieldsOf(option, path));
    const [first, ...rest] = perOption;
    const id = (field: UnknownField) => [...field.path.map(String), field.key].join("\u0000");
    return (first ?? []).filter((field) =>
      rest.every((other) => other.some((candidate) => id(candidate) === id(field)))
    );
  });
}

/**
 * One line per problem, each naming the field: `documents.0.text: must not be
 * empty`. Unknown fields come first, each with the field probably meant when
 * `schema` (the one that failed) has one close to it.
 */
export function describeIssues(error: z.ZodError, schema?: z.ZodType): string {
  const unknown = unknownFieldsOf(error.issues).map(({ path, key }) =>
    schema
      ? unknownFieldMessage(schema, path, key)
      : `unknown field "${[...path.map(String), key].join(".")}"`
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

/**
 * Checks a body of an OpenAI-compatible route: unknown top-level fields in
 * OpenAI's words (`param` null, as OpenAI sends it), else every problem, the
 * first one's field as `param`.
 */
export function validateOpenAI<T>(schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const unrecognized = unrecognizedArguments(parsed.error, schema);
  if (unrecognized) throw new InvalidRequestError(unrecognized);
  const path = parsed.error.issues[0]?.path ?? [];
  throw new InvalidRequestError(
    describeIssues(parsed.error, schema),
    path.length > 0 ? { param: path.join(".") } : {},
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

/**
 * Checks a value against a schema; 400 naming the field when it does not fit.
 * `known`: the schema whose fields an unknown one is compared with, when the
 * route picked `schema` among several (`/v1/fuse`'s two bodies).
 */
export function validate<T>(schema: z.ZodType<T>, value: unknown, known?: z.ZodType): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new InvalidRequestError(describeIssues(parsed.error, known ?? schema));
  return parsed.data;
}

/**
 * The body as parsed JSON, not yet validated: 415 unless its content type is
 * JSON, 413 as soon as the bytes read pass `maxBytes` (the rest is never read),
 * 400 naming the field and the position when it is not UTF-8 or not JSON.
 */
export async function readRawJson(c: Context, options: { maxBytes: number }): Promise<unknown> {
  requireJsonContentType(c.req.raw);
  const text = decodeUtf8Body(
    await readBodyBytes(c.req.raw, options.maxBytes, {
      // c.get, not c.var: hono builds a new object of every variable for each c.var.
      timeoutMs: (c.get("config") as { bodyReadTimeoutMs?: number } | undefined)?.bodyReadTimeoutMs,
    }),
  );
  try {
    return JSON.parse(text);
  } catch {
    throw new InvalidRequestError(jsonSyntaxError(text));
  }
}

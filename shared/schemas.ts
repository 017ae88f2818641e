import { z } from "zod";
import { LIMITS } from "./limits.ts";
import { unstorableStrings } from "./text/storable.ts";
import { DEFAULT_NAMESPACE } from "./vector/port.ts";

/** A user's question: trimmed, non-empty, bounded. */
export const querySchema = z
  .string({ error: "must be a string" })
  .trim()
  .min(1, { error: "must not be empty" })
  .max(LIMITS.queryChars, { error: `must be at most ${LIMITS.queryChars} characters` });

export const namespaceSchema = z
  .string({ error: "must be a string" })
  .regex(/^[A-Za-z0-9_-]{1,64}$/, { error: "must be 1-64 letters, digits, '_' or '-'" })
  .default(DEFAULT_NAMESPACE);

/**
 * A document's id: 1-200 letters, digits, `.`, `_`, `:` or `-`, in parts with `/` between them
 * (`alpha/README`, the path of a file in a folder given to `ingest`). No part is `.` or `..`,
 * nor empty: a URL carries the id percent-encoded (`/v1/documents/alpha%2FREADME`,
 * `sift://default/alpha%2FREADME`), and a proxy that decodes `%2F` must not find a `..` there.
 *
 * @example
 * documentIdSchema.parse("alpha/README"); // "alpha/README"
 */
export const documentIdSchema = z
  .string({ error: "must be a string" })
  .regex(/^[A-Za-z0-9._:-]+(?:\/[A-Za-z0-9._:-]+)*$/, {
    error: "must be letters, digits, '.', '_', ':' or '-', with '/' between parts",
  })
  .max(200, { error: "must be at most 200 characters" })
  .refine((id) => id.split("/").every((part) => part !== "." && part !== ".."), {
    // A URL path cannot carry them: DELETE /v1/documents/.. would never reach this id.
    error: "must not have '.' or '..' as a part",
  });

export const searchModeSchema = z.enum(["dense", "sparse", "hybrid"], {
  error: "must be dense, sparse or hybrid",
});

// No coercion: `"5"`, `true` and `[5]` are the caller's mistakes, not numbers.
export const topKSchema = z
  .number({ error: "must be a number" })
  .int({ error: "must be a whole number" })
  .min(1, { error: "must be at least 1" })
  .max(LIMITS.topK, { error: `must be at most ${LIMITS.topK}` });

const scalar = z.union([z.string(), z.number(), z.boolean()]);

/** Field names that would reach Object's prototype instead of a document's own metadata. */
export const RESERVED_FIELD_NAMES: readonly string[] = ["__proto__", "constructor", "prototype"];

const filterFieldName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, {
  error: "must be a metadata field name",
});

const filterRecord = z.record(
  filterFieldName,
  z.union([
    scalar,
    z.strictObject({
      eq: scalar.optional(),
      ne: scalar.optional(),
      gt: z.union([z.string(), z.number()]).optional(),
      gte: z.union([z.string(), z.number()]).optional(),
      lt: z.union([z.string(), z.number()]).optional(),
      lte: z.union([z.string(), z.number()]).optional(),
      in: z.array(z.union([z.string(), z.number()])).max(100).optional(),
    }, { error: "must be a value or an object of eq, ne, gt, gte, lt, lte, in" }),
  ]),
  {
    error: (issue) =>
      issue.code === "invalid_key"
        ? "must be a metadata field name (a letter or _, then up to 63 letters, digits or _)"
        : undefined,
  },
);

/**
 * `schema` for an object keyed by callers (metadata fields, criterion names),
 * with `__proto__`, `constructor` and `prototype` refused by name: zod drops
 * an own `__proto__` key silently, so the raw object is checked before it parses.
 */
export function withoutReservedKeys<T extends z.ZodType>(schema: T, message: string) {
  return z.preprocess((value, ctx) => {
    if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
    for (const field of RESERVED_FIELD_NAMES) {
      if (Object.hasOwn(value, field)) {
        ctx.issues.push({ code: "custom", path: [field], message, input: value });
      }
    }
    return value;
  }, schema);
}

/**
 * `schema` for what reaches the index (a document, a filter): every string
 * in the value, keys too, at any depth, is checked first, and a NUL (U+0000)
 * or a lone surrogate is a 400 naming where it is
 * (`documents.0.text: holds a NUL character (U+0000) at character 12`), on
 * every index alike (see `unstorableText`).
 */
export function withStorableText<T extends z.ZodType>(schema: T) {
  return z.preprocess((value, ctx) => {
    for (const { path, problem } of unstorableStrings(value)) {
      ctx.issues.push({ code: "custom", path, message: problem, input: value });
    }
    return value;
  }, schema);
}

/** `{field: value}` or `{field: {gte: ..., in: [...]}}`, all ANDed. */
export const metadataFilterSchema = withStorableText(withoutReservedKeys(
  filterRecord,
  "is a reserved name, not a metadata field",
));

/** A document given inline (to /v1/answer, later /v1/rerank): text plus optional metadata. */
export const inlineDocumentSchema = z.union([
  z.string().min(1, { error: "must not be empty" }).max(LIMITS.answerDocumentChars),
  z.strictObject({
    id: z.string().max(200).optional(),
    text: z.string().min(1, { error: "must not be empty" }).max(LIMITS.answerDocumentChars, {
      error: `must be at most ${LIMITS.answerDocumentChars} characters`,
    }),
    metadata: z.record(z.string(), z.unknown()).optional(),
  }),
]);

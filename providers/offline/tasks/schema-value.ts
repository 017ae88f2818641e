/**
 * A value a JSON Schema accepts, built deterministically from the answer's
 * sentences: strings get the answer (or one sentence each, in an array),
 * numbers the lowest value allowed from 0 up, booleans whether the documents
 * answered, objects every property, arrays as many items as there are
 * sentences within `minItems`/`maxItems`. `pattern` is not generated for
 * (sift never checks it; docs/openai-clients.md says so).
 */

type Schema = Record<string, unknown>;

/** How deep `$ref`s are followed: a recursive schema stops with its smallest value there. */
const MAX_DEPTH = 12;

/** Values of the common `format`s that are valid whatever the content. */
const FORMAT_SAMPLES: Readonly<Record<string, string>> = {
  "date-time": "2026-01-01T00:00:00Z",
  date: "2026-01-01",
  time: "00:00:00Z",
  email: "answer@example.com",
  uri: "https://example.com/",
  url: "https://example.com/",
  uuid: "00000000-0000-4000-8000-000000000000",
  ipv4: "127.0.0.1",
  ipv6: "::1",
  hostname: "example.com",
  duration: "P1D",
};

export type SchemaValueContext = {
  /** The whole answer, `[n]` markers included; empty when the documents do not answer. */
  answer: string;
  /** Its sentences. */
  sentences: readonly string[];
  root: Schema;
};

function asSchema(value: unknown): Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? value as Schema
    : {};
}

function resolve(schema: Schema, context: SchemaValueContext): Schema {
  const ref = schema.$ref;
  if (typeof ref !== "string" || !ref.startsWith("#")) return schema;
  const path = ref.slice(1).split("/").filter(Boolean);
  let node: unknown = context.root;
  for (const segment of path) {
    node = asSchema(node)[segment.replaceAll("~1", "/").replaceAll("~0", "~")];
  }
  return asSchema(node);
}

function typeOf(schema: Schema): string | undefined {
  const type = schema.type;
  if (typeof type === "string") return type;
  if (Array.isArray(type)) return type.find((t) => t !== "null") ?? type[0];
  if (schema.properties) return "object";
  if (schema.items) return "array";
  return undefined;
}

function stringValue(schema: Schema, text: string): string {
  const format = typeof schema.format === "string" ? FORMAT_SAMPLES[schema.format] : undefined;
  let value = format ?? text;
  const min = typeof schema.minLength === "number" ? schema.minLength : 0;
  const max = typeof schema.maxLength === "number" ? schema.maxLength : Infinity;
  if (value.length < min) value = value.padEnd(min, value ? " " : "-");
  return value.length > max ? value.slice(0, max) : value;
}

function numberValue(schema: Schema, integer: boolean): number {
  const bound = (key: string) =>
    typeof schema[key] === "number" ? schema[key] as number : undefined;
  const minimum = bound("minimum");
  const exclusiveMinimum = bound("exclusiveMinimum");
  const maximum = bound("maximum") ?? bound("exclusiveMaximum");
  let value = Math.max(0, minimum ?? -Infinity);
  if (exclusiveMinimum !== undefined && value <= exclusiveMinimum) {
    value = maximum !== undefined && !integer
      ? (exclusiveMinimum + maximum) / 2
      : exclusiveMinimum + 1;
  }
  if (maximum !== undefined && value > maximum) value = minimum ?? maximum;
  return integer ? Math.ceil(value) : value;
}

function arrayValue(schema: Schema, context: SchemaValueContext, depth: number): unknown[] {
  const min = typeof schema.minItems === "number" ? schema.minItems : 0;
  const max = typeof schema.maxItems === "number" ? schema.maxItems : Infinity;
  const wanted = Math.min(max, Math.max(min, depth >= MAX_DEPTH ? 0 : context.sentences.length));
  const items = asSchema(schema.items);
  return Array.from({ length: wanted }, (_, position) => {
    const sentence = context.sentences[position] ?? context.sentences.at(-1) ?? "";
    return valueOf(items, { ...context, answer: sentence }, depth + 1);
  });
}

function objectValue(schema: Schema, context: SchemaValueContext, depth: number) {
  const properties = asSchema(schema.properties);
  const required = Array.isArray(schema.required) ? schema.required : [];
  // A free object (`json_object`) gets the answer under one plain name.
  if (Object.keys(properties).length === 0 && schema.additionalProperties !== false) {
    return { answer: context.answer };
  }
  const names = depth >= MAX_DEPTH
    ? Object.keys(properties).filter((name) => required.includes(name))
    : Object.keys(properties);
  return Object.fromEntries(
    names.map((name) => [name, valueOf(asSchema(properties[name]), context, depth + 1)]),
  );
}

/** The value `schema` accepts for this answer. */
export function valueOf(given: Schema, context: SchemaValueContext, depth = 0): unknown {
  const schema = resolve(given, context);
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0] ?? null;
  for (const key of ["anyOf", "oneOf"] as const) {
    const options = schema[key];
    if (Array.isArray(options) && options.length > 0) {
      const chosen = options.map(asSchema).find((option) => option.type !== "null") ??
        asSchema(options[0]);
      return valueOf(chosen, context, depth + 1);
    }
  }
  if (Array.isArray(schema.allOf) && schema.allOf.length > 0) {
    return valueOf(asSchema(schema.allOf[0]), context, depth + 1);
  }
  switch (typeOf(schema)) {
    case "string":
      return stringValue(schema, context.answer);
    case "integer":
      return numberValue(schema, true);
    case "number":
      return numberValue(schema, false);
    case "boolean":
      return context.answer !== "";
    case "null":
      return null;
    case "array":
      return arrayValue(schema, context, depth);
    case "object":
      return objectValue(schema, context, depth);
    default:
      return context.answer;
  }
}

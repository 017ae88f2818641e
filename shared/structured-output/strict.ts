/**
 * Whether a schema meets OpenAI's strict mode (every object closed with
 * `additionalProperties: false` and every property required), so a caller's
 * `strict: true` can go to the provider as is. A schema that does not (the
 * AI SDK sends `strict: true` with optional fields) goes non-strict instead of
 * being refused upstream; sift validates the reply either way.
 *
 * @example
 * isStrictCompatible({ type: "object", properties: { a: { type: "string" } },
 *   required: ["a"], additionalProperties: false }); // true
 */
export function isStrictCompatible(schema: unknown): boolean {
  const stack: unknown[] = [schema];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== "object" || node === null) continue;
    if (Array.isArray(node)) {
      stack.push(...node);
      continue;
    }
    const record = node as Record<string, unknown>;
    const properties = record.properties;
    if (record.type === "object" || (typeof properties === "object" && properties !== null)) {
      if (record.additionalProperties !== false) return false;
      const names = Object.keys((properties ?? {}) as object);
      const required = Array.isArray(record.required) ? record.required : [];
      if (names.some((name) => !required.includes(name))) return false;
    }
    for (const [key, value] of Object.entries(record)) {
      // `properties` and `$defs` map names to schemas; `enum`/`const` hold values, not schemas.
      if (key === "enum" || key === "const" || key === "default" || key === "examples") continue;
      stack.push(value);
    }
  }
  return true;
}

import type { z } from "zod";

/**
 * What to tell a caller who sent a field the schema does not know: the field
 * by its full path and, when one is close, the field they probably meant.
 * Request bodies are `z.strictObject`s, so zod reports the unknown key; the
 * known ones are read from the schema itself, so no route lists them twice.
 *
 * @example
 * unknownFieldMessage(schema, [], "topn");
 * // 'unknown field "topn"; did you mean "top_n"?'
 * unknownFieldMessage(schema, [], "variant");
 * // 'unknown field "variant"; it goes in "item.variant"'
 */
export function unknownFieldMessage(
  schema: z.ZodType,
  path: readonly PropertyKey[],
  field: string,
): string {
  const at = (name: string) => [...path.map(String), name].join(".");
  // A key is the caller's text: a long one is cut in the message and gets no suggestion
  // (the edit distance costs its length times each known name's).
  if (field.length > MAX_SUGGESTED_LENGTH) {
    return `unknown field "${at(field.slice(0, MAX_SUGGESTED_LENGTH))}…"`;
  }
  const shapes = objectShapesAt(schema, path);
  const known = [...new Set(shapes.flatMap((shape) => Object.keys(shape)))];
  const close = closestField(field, known);
  if (close) return `unknown field "${at(field)}"; did you mean "${at(close)}"?`;
  const nested = nestedPlace(shapes, field);
  if (nested) return `unknown field "${at(field)}"; it goes in "${at(nested)}"`;
  return `unknown field "${at(field)}"`;
}

/** No field sift knows is longer; past this a key is named cut short, with no suggestion. */
const MAX_SUGGESTED_LENGTH = 64;

type Shape = Record<string, z.ZodType>;
type Def = { type: string; [key: string]: unknown };

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The schemas a value may be checked by, wrappers (optional, default, pipe...) looked through. */
function unwrap(schema: z.ZodType, depth = 0): z.ZodType[] {
  if (depth > 20) return [];
  const def = defOf(schema);
  const inner = (key: string) => unwrap(def[key] as z.ZodType, depth + 1);
  switch (def.type) {
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "nonoptional":
    case "catch":
    case "readonly":
      return inner("innerType");
    case "pipe":
      return [...inner("in"), ...inner("out")];
    case "lazy":
      return unwrap((def.getter as () => z.ZodType)(), depth + 1);
    case "union":
      return (def.options as z.ZodType[]).flatMap((option) => unwrap(option, depth + 1));
    case "intersection":
      return [...inner("left"), ...inner("right")];
    default:
      return [schema];
  }
}

/** The object shapes that can sit at `path` inside `schema`. */
function objectShapesAt(schema: z.ZodType, path: readonly PropertyKey[]): Shape[] {
  let current = unwrap(schema);
  for (const step of path) {
    current = current.flatMap((candidate) => {
      const def = defOf(candidate);
      if (def.type === "object") {
        const shape = def.shape as Shape;
        return typeof step === "string" && Object.hasOwn(shape, step) ? unwrap(shape[step]!) : [];
      }
      if (def.type === "array") return unwrap(def.element as z.ZodType);
      if (def.type === "record") return unwrap(def.valueType as z.ZodType);
      if (def.type === "tuple" && typeof step === "number") {
        const item = (def.items as z.ZodType[])[step];
        return item ? unwrap(item) : [];
      }
      return [];
    });
  }
  return current.filter((candidate) => defOf(candidate).type === "object")
    .map((candidate) => defOf(candidate).shape as Shape);
}

/** Letters only, lower case: `topK`, `top-k` and `top_k` are the same name. */
const normalized = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, "");

/** Optimal string alignment distance: edits, with a swap of two neighbours as one. */
export function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array(b.length).fill(0)]);
  for (let j = 0; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      }
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}

/** The known field `field` is most likely a misspelling of, if any is close enough. */
export function closestField(field: string, known: readonly string[]): string | undefined {
  const wanted = normalized(field);
  if (!wanted) return undefined;
  const same = known.find((name) => normalized(name) === wanted);
  if (same) return same;
  // One edit in a short name, two in a name of eight letters or more.
  const allowed = wanted.length >= 8 ? 2 : 1;
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = editDistance(wanted, normalized(name));
    if (distance <= allowed && (!best || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

/** `item.variant` when `field` is a field of an options object one or two levels down. */
function nestedPlace(shapes: Shape[], field: string): string | undefined {
  let level = shapes.flatMap((shape) =>
    Object.entries(shape).map(([name, schema]) => ({ name, schema }))
  );
  for (let depth = 0; depth < 2; depth++) {
    const next: { name: string; schema: z.ZodType }[] = [];
    for (const { name, schema } of level) {
      for (const inner of objectShapesAt(schema, [])) {
        if (Object.hasOwn(inner, field)) return `${name}.${field}`;
        next.push(
          ...Object.entries(inner).map(([key, value]) => ({
            name: `${name}.${key}`,
            schema: value,
          })),
        );
      }
    }
    level = next;
  }
  return undefined;
}

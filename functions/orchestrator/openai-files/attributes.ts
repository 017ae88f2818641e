import { z } from "zod";
import type { ChunkMetadata } from "../../../shared/vector/port.ts";

/** Where an attribute lives in a chunk's metadata: apart from sift's own fields (`source`, `page`). */
export const ATTRIBUTE_PREFIX = "attr_";

/** OpenAI's attributes: at most 16, keys up to 64 characters, strings up to 512, numbers, booleans. */
export const attributesSchema = z.record(
  z.string().min(1, { error: "must not be empty" }).max(64, {
    error: "must be at most 64 characters",
  })
    .regex(/^[A-Za-z0-9_.-]+$/, { error: "must be letters, digits, '_', '.' or '-'" }),
  z.union([
    z.string().max(512, { error: "must be at most 512 characters" }),
    z.number(),
    z.boolean(),
  ], {
    error: "must be a string, a number or a boolean",
  }),
).refine((attributes) => Object.keys(attributes).length <= 16, {
  error: "must hold at most 16 attributes",
});

export type Attributes = z.infer<typeof attributesSchema>;

/** Attributes as chunk metadata fields, each under `attr_<key>`, so filters reach them. */
export function attributeFields(attributes: Attributes): Record<string, string | number | boolean> {
  return Object.fromEntries(
    Object.entries(attributes).map(([key, value]) => [`${ATTRIBUTE_PREFIX}${key}`, value]),
  );
}

/** A chunk's attributes back from its metadata. */
export function attributesOf(metadata: ChunkMetadata): Attributes {
  const attributes: Attributes = {};
  for (const [field, value] of Object.entries(metadata)) {
    if (!field.startsWith(ATTRIBUTE_PREFIX)) continue;
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") {
      attributes[field.slice(ATTRIBUTE_PREFIX.length)] = value;
    }
  }
  return attributes;
}

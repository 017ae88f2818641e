import { z } from "zod";

/** OpenAI's cursor page around `item`. */
export function listPageSchema(item: z.ZodType) {
  return z.object({
    object: z.literal("list"),
    data: z.array(item),
    first_id: z.string().nullable(),
    last_id: z.string().nullable(),
    has_more: z.boolean(),
  });
}

/** OpenAI's reply to a delete. */
export function deletedSchema(object: string) {
  return z.object({ id: z.string(), object: z.literal(object), deleted: z.literal(true) });
}

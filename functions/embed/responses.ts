import { z } from "zod";

/** `POST /v1/documents` → 201. */
export const ingestResponseSchema = z.object({
  namespace: z.string(),
  documents: z.array(z.object({
    id: z.string().meta({ description: "Given, or `doc-<sha256 prefix>` of the text" }),
    chunks: z.number().int(),
  })),
  chunks: z.number().int().meta({ description: "Chunks written, over all documents" }),
  unchanged: z.array(z.string()).optional().meta({
    description: "With an upload's `skip_unchanged=true`: the ids of files whose bytes match " +
      "the `content_sha256` their stored document has, neither parsed nor stored again",
  }),
});

/** `DELETE /v1/documents/:id`. */
export const deleteResponseSchema = z.object({
  id: z.string(),
  namespace: z.string(),
  deleted_chunks: z.number().int(),
});

/** `POST /v1/embeddings`: OpenAI's shape. */
export const embeddingsResponseSchema = z.object({
  object: z.literal("list"),
  data: z.array(z.object({
    object: z.literal("embedding"),
    index: z.number().int(),
    embedding: z.union([z.array(z.number()), z.string()]).meta({
      description: "Floats, or with `encoding_format: base64` little-endian float32 in base64",
    }),
  })),
  model: z.string(),
  usage: z.object({ prompt_tokens: z.number().int(), total_tokens: z.number().int() }),
});

/** `POST /v1/webhooks/documents` with a `webhook-id` already ingested. */
export const webhookDuplicateSchema = z.object({
  duplicate: z.literal(true),
  webhook_id: z.string(),
});

export { documentListSchema, documentSchema } from "../../shared/documents/listing.ts";

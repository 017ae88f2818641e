import { z } from "zod";
import { attributesSchema } from "./attributes.ts";

/** Where a tenant's vector store records live; a store's own chunks are the namespace of its id. */
export const STORE_RECORDS_NAMESPACE = "openai-vector-stores";
/** Where a store's file records live (its files' chunks are in the store's namespace). */
export function storeFilesNamespace(storeId: string): string {
  return `openai-files-of-${storeId}`;
}

/** OpenAI's metadata: at most 16 pairs, keys up to 64 characters, values up to 512. */
export const metadataSchema = z.record(
  z.string().max(64, { error: "must be at most 64 characters" }),
  z.string({ error: "must be a string" }).max(512, { error: "must be at most 512 characters" }),
).refine((metadata) => Object.keys(metadata).length <= 16, {
  error: "must hold at most 16 pairs",
});

export const expiresAfterSchema = z.strictObject({
  anchor: z.literal("last_active_at", { error: 'must be "last_active_at"' }),
  days: z.number().int().min(1, { error: "must be at least 1" }).max(365, {
    error: "must be at most 365",
  }),
});

export const storeRecordSchema = z.object({
  name: z.string(),
  created_at: z.number().int(),
  last_active_at: z.number().int(),
  metadata: z.record(z.string(), z.string()),
  expires_after: expiresAfterSchema.nullable(),
});
export type StoreRecord = z.infer<typeof storeRecordSchema>;

export const STORE_FILE_STATUSES = ["in_progress", "completed", "failed", "cancelled"] as const;

export const chunkingSchema = z.object({
  max_chunk_size_tokens: z.number().int(),
  chunk_overlap_tokens: z.number().int(),
});

export const storeFileRecordSchema = z.object({
  created_at: z.number().int(),
  status: z.enum(STORE_FILE_STATUSES),
  last_error: z.object({ code: z.string(), message: z.string() }).nullable(),
  usage_bytes: z.number().int(),
  attributes: attributesSchema,
  chunking: chunkingSchema,
});
export type StoreFileRecord = z.infer<typeof storeFileRecordSchema>;

export type FileCounts = Record<(typeof STORE_FILE_STATUSES)[number] | "total", number>;

/** OpenAI's vector store object. */
export function storeObject(
  id: string,
  record: StoreRecord,
  files: { counts: FileCounts; usageBytes: number },
) {
  const expiresAt = record.expires_after
    ? record.last_active_at + record.expires_after.days * 86_400
    : null;
  return {
    id,
    object: "vector_store" as const,
    created_at: record.created_at,
    name: record.name,
    usage_bytes: files.usageBytes,
    file_counts: files.counts,
    status: files.counts.in_progress > 0 ? "in_progress" as const : "completed" as const,
    expires_after: record.expires_after,
    expires_at: expiresAt,
    last_active_at: record.last_active_at,
    metadata: record.metadata,
  };
}

/** OpenAI's vector store file object. */
export function storeFileObject(storeId: string, fileId: string, record: StoreFileRecord) {
  return {
    id: fileId,
    object: "vector_store.file" as const,
    created_at: record.created_at,
    vector_store_id: storeId,
    status: record.status,
    last_error: record.last_error,
    usage_bytes: record.usage_bytes,
    attributes: record.attributes,
    chunking_strategy: { type: "static" as const, static: record.chunking },
  };
}

const countsSchema = z.object({
  in_progress: z.number().int(),
  completed: z.number().int(),
  failed: z.number().int(),
  cancelled: z.number().int(),
  total: z.number().int(),
});

export const storeObjectSchema = z.object({
  id: z.string().meta({ description: "`vs_` and 24 hex digits: also the namespace of its chunks" }),
  object: z.literal("vector_store"),
  created_at: z.number().int(),
  name: z.string(),
  usage_bytes: z.number().int(),
  file_counts: countsSchema,
  status: z.enum(["in_progress", "completed"]),
  expires_after: expiresAfterSchema.nullable(),
  expires_at: z.number().int().nullable(),
  last_active_at: z.number().int(),
  metadata: z.record(z.string(), z.string()),
});

export const storeFileObjectSchema = z.object({
  id: z.string().meta({ description: "The file's id" }),
  object: z.literal("vector_store.file"),
  created_at: z.number().int(),
  vector_store_id: z.string(),
  status: z.enum(STORE_FILE_STATUSES),
  last_error: z.object({ code: z.string(), message: z.string() }).nullable(),
  usage_bytes: z.number().int(),
  attributes: attributesSchema,
  chunking_strategy: z.object({ type: z.literal("static"), static: chunkingSchema }),
});

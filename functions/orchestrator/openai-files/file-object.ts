import { z } from "zod";

/** The purposes sift keeps files for: retrieval, as the Assistants and Responses APIs use them. */
export const FILE_PURPOSES = ["assistants", "user_data"] as const;

/** What sift keeps about a file beside its text: OpenAI's file object, less what is derived. */
export const fileRecordSchema = z.object({
  filename: z.string(),
  bytes: z.number().int(),
  purpose: z.enum(FILE_PURPOSES),
  created_at: z.number().int(),
});

export type FileRecord = z.infer<typeof fileRecordSchema>;

/** OpenAI's file object, as `files.create` and `files.retrieve` return it. */
export function fileObject(id: string, record: FileRecord) {
  return {
    id,
    object: "file" as const,
    bytes: record.bytes,
    created_at: record.created_at,
    expires_at: null,
    filename: record.filename,
    purpose: record.purpose,
    status: "processed" as const,
    status_details: null,
  };
}

export const fileObjectSchema = z.object({
  id: z.string().meta({ description: "`file-` and 24 hex digits" }),
  object: z.literal("file"),
  bytes: z.number().int(),
  created_at: z.number().int().meta({ description: "Unix seconds" }),
  expires_at: z.null(),
  filename: z.string(),
  purpose: z.enum(FILE_PURPOSES),
  status: z.literal("processed"),
  status_details: z.null(),
});

/** The reserved namespaces a tenant's files live in: their text, and their records. */
export const FILES_NAMESPACE = "openai-files";
export const FILE_RECORDS_NAMESPACE = "openai-file-records";

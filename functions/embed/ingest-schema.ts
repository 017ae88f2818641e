import { z } from "zod";
import { LIMITS } from "../../shared/limits.ts";
import { documentIdSchema, namespaceSchema, withStorableText } from "../../shared/schemas.ts";
import { DATE_FIELDS, futureDateProblem } from "../../shared/documents/dates.ts";

/**
 * The body of `POST /v1/documents`, which a pushed webhook
 * (`POST /v1/webhooks/documents`) carries too: a module of its own so the
 * route and the webhook share it without importing each other.
 */
// Every string a document carries is stored in the index: none may hold a NUL or a lone surrogate.
const documentSchema = withStorableText(
  z.strictObject({
    id: documentIdSchema.optional(),
    text: z.string({ error: "must be a string" }).trim().min(1, { error: "must not be empty" }).max(
      LIMITS.documentChars,
      { error: `must be at most ${LIMITS.documentChars} characters` },
    ),
    title: z.string().max(1000).optional(),
    url: z.string().max(2000).optional(),
    published: z.string().max(100).optional(),
    authors: z.union([z.string().max(2000), z.array(z.string().max(200)).max(100)]).optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
  }).superRefine((document, ctx) => {
    // Dates the rerank criteria read are checked where they enter: a 2099 date would win recency.
    const now = Date.now();
    const problem = futureDateProblem(document.published, now);
    if (problem) ctx.addIssue({ code: "custom", path: ["published"], message: problem });
    for (const field of DATE_FIELDS) {
      const value = document.metadata && Object.hasOwn(document.metadata, field)
        ? document.metadata[field]
        : undefined;
      const metadataProblem = futureDateProblem(value, now);
      if (metadataProblem) {
        ctx.addIssue({ code: "custom", path: ["metadata", field], message: metadataProblem });
      }
    }
  }),
);

export const ingestSchema = z.strictObject({
  documents: z.array(documentSchema, { error: "must be an array of documents" })
    .min(1, { error: "must hold at least one document" })
    .max(LIMITS.documentsPerIngest, {
      error: `must hold at most ${LIMITS.documentsPerIngest} documents per request`,
    }),
  namespace: namespaceSchema,
  chunking: z.strictObject({
    size: z.number().int().min(16).max(8000).optional(),
    overlap: z.number().int().min(0).optional(),
  }).optional(),
});

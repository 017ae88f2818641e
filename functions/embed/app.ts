import type { Context, Hono } from "hono";
import { z } from "zod";
import { LIMITS } from "../../shared/limits.ts";
import { namespaceSchema } from "../../shared/schemas.ts";
import type { AppEnv } from "../../shared/http/server.ts";
import { readJson, readRawJson, validateOpenAI } from "../../shared/http/validate.ts";
import { InvalidRequestError, NotFoundError } from "../../shared/errors.ts";
import { ingestDocuments } from "../../shared/documents/ingest.ts";
import { DATE_FIELDS, futureDateProblem } from "../../shared/documents/dates.ts";
import { createEmbeddings } from "./embeddings.ts";
import { MAX_EMBEDDING_DIMENSIONS } from "../../shared/embeddings/port.ts";
import { mountDocumentsWebhook } from "./webhook.ts";
import { mountDocumentReads } from "./documents.ts";
import { describe, json } from "../../shared/http/openapi.ts";
import {
  deleteResponseSchema,
  embeddingsResponseSchema,
  ingestResponseSchema,
} from "./responses.ts";

const documentSchema = z.strictObject({
  id: z.string().regex(/^[A-Za-z0-9._:\-]{1,200}$/, {
    error: "must be 1-200 letters, digits, '.', '_', ':' or '-'",
  }).refine((id) => id !== "." && id !== "..", {
    // A URL path cannot carry them: DELETE /v1/documents/.. would never reach this id.
    error: "must not be '.' or '..'",
  }).optional(),
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
});

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

const embeddingsSchema = z.strictObject({
  input: z.union([
    z.string().min(1, { error: "must not be empty" }).max(LIMITS.embeddingInputChars),
    z.array(z.string().min(1).max(LIMITS.embeddingInputChars)).min(1).max(LIMITS.embeddingInputs),
  ], { error: "must be a non-empty string or array of strings (token arrays are not supported)" }),
  model: z.string().optional(),
  encoding_format: z.enum(["float", "base64"]).default("float"),
  dimensions: z.number({ error: "must be a number" }).int({ error: "must be a whole number" })
    .positive({ error: "must be at least 1" })
    .max(MAX_EMBEDDING_DIMENSIONS, { error: `must be at most ${MAX_EMBEDDING_DIMENSIONS}` })
    .optional(),
  user: z.string().optional(),
});

/** Chunks, embeds and stores a validated `/v1/documents` body (also what a pushed webhook carries). */
export async function ingestBody(c: Context<AppEnv>, body: z.infer<typeof ingestSchema>) {
  const defaults = c.var.config.chunking;
  const chunking = {
    size: body.chunking?.size ?? defaults.size,
    overlap: body.chunking?.overlap ??
      Math.min(defaults.overlap, (body.chunking?.size ?? defaults.size) - 1),
  };
  if (chunking.overlap >= chunking.size) {
    throw new InvalidRequestError("chunking.overlap: must be smaller than chunking.size");
  }
  return await ingestDocuments(
    c.var.deps,
    { documents: body.documents, namespace: body.namespace, chunking },
    c.req.raw.signal,
  );
}

/**
 * `POST /v1/documents`, `POST /v1/webhooks/documents`, `DELETE /v1/documents/:id`,
 * `POST /v1/embeddings`.
 */
export function mountEmbed(app: Hono<AppEnv>): void {
  app.post(
    "/v1/documents",
    describe({
      tag: "embed",
      summary: "Ingest documents",
      description: "Chunks follow the text's paragraphs and sentences within `CHUNK_SIZE` " +
        "tokens (see docs/chunking-and-citations.md), ids `${doc_id}#${n}`; ingesting an " +
        "id again replaces its chunks. A missing id is derived from the text.",
      body: ingestSchema,
      responses: { 201: json("Ingested", ingestResponseSchema) },
      errors: [502],
    }),
    async (c) => {
      const body = await readJson(c, ingestSchema, { maxBytes: LIMITS.ingestBodyBytes });
      return c.json(await ingestBody(c, body), 201);
    },
  );

  mountDocumentsWebhook(app);
  mountDocumentReads(app);

  app.delete(
    "/v1/documents/:id",
    describe({
      tag: "embed",
      summary: "Delete a document's chunks",
      params: { id: "The document's id" },
      query: z.object({ namespace: namespaceSchema }),
      responses: { 200: json("Deleted", deleteResponseSchema) },
      errors: [400, 404, 502],
    }),
    async (c) => {
      const namespace = namespaceSchema.safeParse(c.req.query("namespace") ?? undefined);
      if (!namespace.success) {
        throw new InvalidRequestError(`namespace: ${namespace.error.issues[0]?.message}`);
      }
      const id = c.req.param("id");
      const deleted = await c.var.deps.index.deleteDocument(id, { namespace: namespace.data });
      if (deleted === 0) {
        throw new NotFoundError(`No document ${id} in namespace ${namespace.data}`);
      }
      return c.json({ id, namespace: namespace.data, deleted_chunks: deleted });
    },
  );

  app.post(
    "/v1/embeddings",
    describe({
      tag: "embed",
      summary: "Embeddings, OpenAI-compatible",
      description: "Token-array input is refused (400), and so is an unknown parameter, in " +
        "OpenAI's words (`Unrecognized request argument supplied: ...`).",
      body: embeddingsSchema,
      responses: { 200: json("One vector per input", embeddingsResponseSchema) },
      errors: [502],
    }),
    async (c) => {
      const body = validateOpenAI(
        embeddingsSchema,
        await readRawJson(c, { maxBytes: LIMITS.ingestBodyBytes }),
      );
      const texts = typeof body.input === "string" ? [body.input] : body.input;
      return c.json(
        await createEmbeddings(
          c.var.deps,
          { texts, encoding: body.encoding_format, dimensions: body.dimensions },
          c.req.raw.signal,
        ),
      );
    },
  );
}

import type { Hono } from "hono";
import { z } from "zod";
import { LIMITS } from "../../shared/limits.ts";
import { namespaceSchema } from "../../shared/schemas.ts";
import type { AppEnv } from "../../shared/http/server.ts";
import { readJson, readRawJson, validateOpenAI } from "../../shared/http/validate.ts";
import { InvalidRequestError, NotFoundError } from "../../shared/errors.ts";
import { createEmbeddings } from "./embeddings.ts";
import { MAX_EMBEDDING_DIMENSIONS } from "../../shared/embeddings/port.ts";
import { mountDocumentsWebhook } from "./webhook.ts";
import { ingestBody } from "./ingest-body.ts";
import { ingestSchema } from "./ingest-schema.ts";
import { describe, json } from "../../shared/http/openapi.ts";
import {
  deleteResponseSchema,
  embeddingsResponseSchema,
  ingestResponseSchema,
} from "./responses.ts";

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
      description: "Chunks are token windows with overlap, ids `${doc_id}#${n}`; ingesting an " +
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

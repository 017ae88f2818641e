import type { Hono } from "hono";
import { z } from "zod";
import { LIMITS } from "../../shared/limits.ts";
import { namespaceSchema } from "../../shared/schemas.ts";
import type { AppEnv } from "../../shared/http/app-env.ts";
import { readJson, readRawJson, validateOpenAI } from "../../shared/http/validate.ts";
import { InvalidRequestError, NotFoundError } from "../../shared/errors.ts";
import { createEmbeddings } from "./embeddings.ts";
import { MAX_EMBEDDING_DIMENSIONS } from "../../shared/embeddings/port.ts";
import { mountDocumentsWebhook } from "./webhook.ts";
import { ingestBody } from "./ingest-body.ts";
import { ingestSchema } from "./ingest-schema.ts";
import { ingestUpload } from "./upload.ts";
import { multipartBoundary } from "../../shared/http/multipart.ts";
import { mountDocumentReads } from "./documents.ts";
import { describe, json } from "../../shared/http/openapi.ts";
import { openAIErrorSchema } from "../../shared/responses.ts";
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

/** `POST /v1/documents` as an upload: the form's fields, as JSON Schema. */
const UPLOAD_FORM = {
  type: "object",
  required: ["file"],
  properties: {
    file: {
      type: "array",
      items: { type: "string", format: "binary" },
      description: "One or more files: PDF, DOCX, HTML, Markdown or plain text",
    },
    id: {
      type: "array",
      items: { type: "string", maxLength: 200 },
      description: "The id of the document the file part after it becomes (alpha/README); " +
        "without one, the file's name without its extension",
    },
    namespace: { type: "string", pattern: "^[A-Za-z0-9_-]{1,64}$", default: "default" },
    skip_unchanged: {
      type: "string",
      enum: ["true", "false"],
      default: "false",
      description: "true: a file whose bytes hash to its stored document's `content_sha256` is " +
        "not parsed or stored again, and is listed in `unchanged`",
    },
  },
};

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
      description: "Chunks follow the text's headings, paragraphs and sentences within " +
        "`CHUNK_SIZE` tokens (see docs/chunking-and-citations.md), ids `${doc_id}#${n}`; " +
        "ingesting an id again replaces its chunks. A missing id is derived from the text. As " +
        "`multipart/form-data` (`curl -F file=@paper.pdf -F namespace=papers`), each `file` " +
        "part is a PDF, Word (.docx), HTML, Markdown or text file, told by its bytes: its id is " +
        "the `id` field sent just before it, else its name without the extension; its name is " +
        "kept as metadata `source`, the SHA-256 of its bytes as `content_sha256`, and PDF " +
        "chunks carry `page`. Two files with one id are a 400 naming both. With " +
        "`skip_unchanged=true`, a file whose stored document has its `content_sha256` is skipped " +
        "and listed in `unchanged`. An image, a scan, an encrypted PDF, an empty file, or a file over " +
        "`FILE_MAX_BYTES`, `PDF_MAX_PAGES` or `ARCHIVE_MAX_EXPANDED_BYTES` is refused (400, 413 " +
        "or 415, naming the file and why) and nothing from the request is stored.",
      body: ingestSchema,
      form: UPLOAD_FORM,
      responses: { 201: json("Ingested", ingestResponseSchema) },
      errors: [502],
    }),
    async (c) => {
      const boundary = multipartBoundary(c.req.header("content-type"));
      if (boundary !== undefined) return c.json(await ingestUpload(c, boundary), 201);
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
      errorBody: openAIErrorSchema,
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

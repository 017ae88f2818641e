import type { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../shared/http/app-env.ts";
import { describe, json } from "../../shared/http/openapi.ts";
import { validate } from "../../shared/http/validate.ts";
import { NotFoundError } from "../../shared/errors.ts";
import { namespaceSchema } from "../../shared/schemas.ts";
import { documentSummary } from "../../shared/vector/port.ts";
import { documentListSchema, documentSchema } from "./responses.ts";

/** Documents per page unless `limit` says otherwise, and the most a page holds. */
export const DOCUMENT_PAGE = { default: 20, max: 100 };

const listQuerySchema = z.strictObject({
  namespace: namespaceSchema,
  cursor: z.string().min(1, { error: "must not be empty" }).max(2000).optional(),
  limit: z.coerce.number({ error: "must be a number" })
    .int({ error: "must be a whole number" })
    .min(1, { error: "must be at least 1" })
    .max(DOCUMENT_PAGE.max, { error: `must be at most ${DOCUMENT_PAGE.max}` })
    .default(DOCUMENT_PAGE.default),
});

const readQuerySchema = z.strictObject({ namespace: namespaceSchema });

/** `GET /v1/documents` (a namespace's documents, paged) and `GET /v1/documents/:id`. */
export function mountDocumentReads(app: Hono<AppEnv>): void {
  app.get(
    "/v1/documents",
    describe({
      tag: "embed",
      summary: "List a namespace's documents",
      description: "In id order (on Upstash Vector, its `range` order), `limit` per page " +
        "(default 20, at most 100); `next_cursor` continues. " +
        "An unknown query parameter or a cursor no page gave is a 400 naming it.",
      query: listQuerySchema,
      responses: { 200: json("One page of documents", documentListSchema) },
      errors: [400, 502],
    }),
    async (c) => {
      const query = validate(listQuerySchema, c.req.query());
      const page = await c.var.deps.index.listDocuments({
        namespace: query.namespace,
        limit: query.limit,
        cursor: query.cursor,
      });
      return c.json({
        object: "list" as const,
        namespace: query.namespace,
        data: page.documents,
        next_cursor: page.cursor ?? null,
      });
    },
  );

  app.get(
    "/v1/documents/:id",
    describe({
      tag: "embed",
      summary: "Read a document back: its chunks with their text and metadata",
      params: { id: "The document's id" },
      query: readQuerySchema,
      responses: { 200: json("The document", documentSchema) },
      errors: [400, 404, 502],
    }),
    async (c) => {
      const { namespace } = validate(readQuerySchema, c.req.query());
      const id = c.req.param("id");
      const chunks = await c.var.deps.index.getDocument(id, { namespace });
      if (chunks.length === 0) {
        throw new NotFoundError(`No document ${id} in namespace ${namespace}`);
      }
      return c.json({
        ...documentSummary(id, chunks[0]!.metadata, chunks.length),
        namespace,
        data: chunks,
      });
    },
  );
}

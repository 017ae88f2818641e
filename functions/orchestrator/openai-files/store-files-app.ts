import type { Hono } from "hono";
import { z } from "zod";
import { describe, json } from "../../../shared/http/openapi.ts";
import type { AppEnv } from "../../../shared/http/app-env.ts";
import { validateOpenAI } from "../../../shared/http/validate.ts";
import { openAIErrorSchema } from "../openai/schemas.ts";
import { listQueryFields } from "./list-page.ts";
import { deletedSchema, listPageSchema } from "./shapes.ts";
import {
  addFileToStore,
  createStoreFileSchema,
  listStoreFiles,
  removeFileFromStore,
  retrieveStoreFile,
  storeFileContent,
  storeFileListQuery,
  updateStoreFile,
  updateStoreFileSchema,
} from "./store-files.ts";
import { storeFileObjectSchema } from "./store-object.ts";
import { readOpenAIJson } from "./read-body.ts";

/** How soon OpenAI's polling helpers should look again (they read this header). */
const POLL_AFTER_MS = "500";

const listQuery = z.strictObject({ ...listQueryFields, ...storeFileListQuery });

const contentPageSchema = z.object({
  object: z.literal("vector_store.file_content.page"),
  data: z.array(z.object({ type: z.literal("text"), text: z.string() })),
  has_more: z.literal(false),
  next_page: z.null(),
});
const params = {
  vector_store_id: "The store's id, `vs_…`",
  file_id: "The file's id, `file-…`",
};

const describeFile = (summary: string, extra: Partial<Parameters<typeof describe>[0]> = {}) =>
  describe({
    tag: "vector-stores",
    summary,
    params,
    responses: { 200: json("The store file", storeFileObjectSchema) },
    errors: [404],
    errorBody: openAIErrorSchema,
    ...extra,
  });

/** A store's files: added by id, listed with a status filter, their attributes updated, removed. */
export function mountStoreFiles(app: Hono<AppEnv>): void {
  app.post(
    "/v1/vector_stores/:vector_store_id/files",
    describe({
      tag: "vector-stores",
      summary: "Add a file to a vector store",
      description: "`file_id`, `attributes` (at most 16; on every chunk, for `filters`), " +
        "`chunking_strategy` `auto` (CHUNK_SIZE and CHUNK_OVERLAP) or `static` " +
        "`{max_chunk_size_tokens, chunk_overlap_tokens}`. The file's text is chunked into the " +
        "store before the reply, so its `status` is `completed`, or `failed` with " +
        "`last_error` when the text cannot be indexed; `openai-poll-after-ms` tells polling " +
        "helpers when to look.",
      params: { vector_store_id: params.vector_store_id },
      body: createStoreFileSchema,
      responses: { 200: json("The store file", storeFileObjectSchema) },
      errors: [404, 502],
      errorBody: openAIErrorSchema,
    }),
    async (c) => {
      const body = await readOpenAIJson(c, createStoreFileSchema);
      const file = await addFileToStore(c.var.steps, c.req.param("vector_store_id"), body);
      c.header("openai-poll-after-ms", POLL_AFTER_MS);
      return c.json(file);
    },
  );

  app.get(
    "/v1/vector_stores/:vector_store_id/files",
    describe({
      tag: "vector-stores",
      summary: "List a vector store's files, newest first",
      params: { vector_store_id: params.vector_store_id },
      query: listQuery,
      responses: { 200: json("A page of store files", listPageSchema(storeFileObjectSchema)) },
      errors: [404],
      errorBody: openAIErrorSchema,
    }),
    async (c) =>
      c.json(
        await listStoreFiles(
          c.var.steps,
          c.req.param("vector_store_id"),
          validateOpenAI(listQuery, c.req.query()),
        ),
      ),
  );

  app.get(
    "/v1/vector_stores/:vector_store_id/files/:file_id",
    describeFile("A store file"),
    async (c) => {
      const file = await retrieveStoreFile(
        c.var.steps,
        c.req.param("vector_store_id"),
        c.req.param("file_id"),
      );
      c.header("openai-poll-after-ms", POLL_AFTER_MS);
      return c.json(file);
    },
  );

  app.get(
    "/v1/vector_stores/:vector_store_id/files/:file_id/content",
    describeFile("A store file's chunks", {
      responses: { 200: json("Its chunks' text, in order", contentPageSchema) },
    }),
    async (c) =>
      c.json(
        await storeFileContent(
          c.var.steps,
          c.req.param("vector_store_id"),
          c.req.param("file_id"),
        ),
      ),
  );

  app.post(
    "/v1/vector_stores/:vector_store_id/files/:file_id",
    describeFile("Update a store file's attributes (its chunks are indexed again)", {
      body: updateStoreFileSchema,
    }),
    async (c) =>
      c.json(
        await updateStoreFile(
          c.var.steps,
          c.req.param("vector_store_id"),
          c.req.param("file_id"),
          await readOpenAIJson(c, updateStoreFileSchema),
        ),
      ),
  );

  app.delete(
    "/v1/vector_stores/:vector_store_id/files/:file_id",
    describeFile("Remove a file from a vector store (the file stays)", {
      responses: { 200: json("Removed", deletedSchema("vector_store.file.deleted")) },
    }),
    async (c) =>
      c.json(
        await removeFileFromStore(
          c.var.steps,
          c.req.param("vector_store_id"),
          c.req.param("file_id"),
        ),
      ),
  );
}

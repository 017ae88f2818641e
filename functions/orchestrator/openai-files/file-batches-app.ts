import type { Hono } from "hono";
import { z } from "zod";
import { describe, json } from "../../../shared/http/openapi.ts";
import type { AppEnv } from "../../../shared/http/app-env.ts";
import { validateOpenAI } from "../../../shared/http/validate.ts";
import { openAIErrorSchema } from "../openai/schemas.ts";
import { createBatch, createBatchSchema, listBatchFiles, retrieveBatch } from "./file-batches.ts";
import { listQueryFields } from "./list-page.ts";
import { readOpenAIJson } from "./read-body.ts";
import { listPageSchema } from "./shapes.ts";
import { storeFileListQuery } from "./store-files.ts";
import { storeFileObjectSchema } from "./store-object.ts";

/** How soon OpenAI's polling helpers should look again (they read this header). */
const POLL_AFTER_MS = "500";

const batchSchema = z.object({
  id: z.string().meta({ description: "`vsfb_` and 24 hex digits" }),
  object: z.literal("vector_store.files_batch"),
  created_at: z.number().int(),
  vector_store_id: z.string(),
  status: z.literal("completed"),
  file_counts: z.object({
    in_progress: z.number().int(),
    completed: z.number().int(),
    failed: z.number().int(),
    cancelled: z.number().int(),
    total: z.number().int(),
  }),
});

const listQuery = z.strictObject({ ...listQueryFields, ...storeFileListQuery });
const params = {
  vector_store_id: "The store's id, `vs_…`",
  batch_id: "The batch's id, `vsfb_…`",
};

/**
 * A store's file batches: created (every file indexed before the reply),
 * read, their files listed. There is no cancel: a batch is done when it is
 * answered, so `…/cancel` is a 404 like any route sift lacks.
 */
export function mountFileBatches(app: Hono<AppEnv>): void {
  app.post(
    "/v1/vector_stores/:vector_store_id/file_batches",
    describe({
      tag: "vector-stores",
      summary: "Add files to a vector store as a batch",
      description: "`file_ids`, or `files` (each with its own `attributes` and " +
        "`chunking_strategy`), at most 100; `attributes` and `chunking_strategy` for those " +
        "without. Every file is found first (a missing one is a 404 and none is added), then " +
        "each is added as `…/files` adds it, before the reply: the batch is `completed`, its " +
        "`file_counts` saying how each file went.",
      params: { vector_store_id: params.vector_store_id },
      body: createBatchSchema,
      responses: { 200: json("The batch", batchSchema) },
      errors: [404, 502],
      errorBody: openAIErrorSchema,
    }),
    async (c) => {
      const body = await readOpenAIJson(c, createBatchSchema);
      const batch = await createBatch(c.var.steps, c.req.param("vector_store_id"), body);
      c.header("openai-poll-after-ms", POLL_AFTER_MS);
      return c.json(batch);
    },
  );

  app.get(
    "/v1/vector_stores/:vector_store_id/file_batches/:batch_id",
    describe({
      tag: "vector-stores",
      summary: "A file batch",
      params,
      responses: { 200: json("The batch", batchSchema) },
      errors: [404],
      errorBody: openAIErrorSchema,
    }),
    async (c) => {
      const batch = await retrieveBatch(
        c.var.steps,
        c.req.param("vector_store_id"),
        c.req.param("batch_id"),
      );
      c.header("openai-poll-after-ms", POLL_AFTER_MS);
      return c.json(batch);
    },
  );

  app.get(
    "/v1/vector_stores/:vector_store_id/file_batches/:batch_id/files",
    describe({
      tag: "vector-stores",
      summary: "A file batch's files, newest first",
      params,
      query: listQuery,
      responses: { 200: json("A page of store files", listPageSchema(storeFileObjectSchema)) },
      errors: [404],
      errorBody: openAIErrorSchema,
    }),
    async (c) =>
      c.json(
        await listBatchFiles(
          c.var.steps,
          c.req.param("vector_store_id"),
          c.req.param("batch_id"),
          validateOpenAI(listQuery, c.req.query()),
        ),
      ),
  );
}

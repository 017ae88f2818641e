import type { Hono } from "hono";
import { z } from "zod";
import { describe, json } from "../../../shared/http/openapi.ts";
import type { AppEnv } from "../../../shared/http/app-env.ts";
import { validateOpenAI } from "../../../shared/http/validate.ts";
import { readOpenAIJson } from "./read-body.ts";
import { openAIErrorSchema } from "../openai/schemas.ts";
import { listQueryFields } from "./list-page.ts";
import { deletedSchema, listPageSchema } from "./shapes.ts";
import { searchPageSchema, searchStore, storeSearchSchema } from "./store-search.ts";
import { storeObjectSchema } from "./store-object.ts";
import {
  createStore,
  createStoreSchema,
  listStores,
  storeObjectOf,
  updateStore,
  updateStoreSchema,
} from "./vector-stores.ts";
import { addFileToStore, deleteStore } from "./store-files.ts";
import { fileRecordOf } from "./files.ts";
import { mountStoreFiles } from "./store-files-app.ts";
import { mountFileBatches } from "./file-batches-app.ts";

const listStoresQuery = z.strictObject(listQueryFields);
const storeParam = { vector_store_id: "The store's id, `vs_…`: also the namespace of its chunks" };

const describeStore = (summary: string, extra: Partial<Parameters<typeof describe>[0]> = {}) =>
  describe({
    tag: "vector-stores",
    summary,
    params: storeParam,
    responses: { 200: json("The vector store", storeObjectSchema) },
    errors: [404],
    errorBody: openAIErrorSchema,
    ...extra,
  });

/**
 * OpenAI's Vector Stores API over sift's namespaces: a store is a namespace
 * of the tenant (its id), a store file a document in it. Everything sift does
 * with a namespace (`/v1/search` modes, `/v1/query`, rerank, evaluation)
 * works on a store by its id.
 */
export function mountVectorStores(app: Hono<AppEnv>): void {
  app.post(
    "/v1/vector_stores",
    describe({
      tag: "vector-stores",
      summary: "Create a vector store",
      description: "`name`, `metadata`, `expires_after` (kept and reported; sift does not " +
        "expire stores), `file_ids` added at once (each as `POST …/files` adds it).",
      body: createStoreSchema,
      responses: { 200: json("The vector store", storeObjectSchema) },
      errors: [404, 502],
      errorBody: openAIErrorSchema,
    }),
    async (c) => {
      const body = await readOpenAIJson(c, createStoreSchema);
      // Every file found first: a missing one is a 404 before any store exists.
      for (const fileId of body.file_ids ?? []) await fileRecordOf(c.var.steps, fileId);
      const { id, record } = await createStore(c.var.steps, body);
      for (const fileId of body.file_ids ?? []) {
        await addFileToStore(c.var.steps, id, { file_id: fileId });
      }
      return c.json(await storeObjectOf(c.var.steps, id, record));
    },
  );

  app.get(
    "/v1/vector_stores",
    describe({
      tag: "vector-stores",
      summary: "List vector stores, newest first",
      query: listStoresQuery,
      responses: { 200: json("A page of stores", listPageSchema(storeObjectSchema)) },
      errorBody: openAIErrorSchema,
    }),
    async (c) =>
      c.json(await listStores(c.var.steps, validateOpenAI(listStoresQuery, c.req.query()))),
  );

  app.get(
    "/v1/vector_stores/:vector_store_id",
    describeStore("A vector store"),
    async (c) => c.json(await storeObjectOf(c.var.steps, c.req.param("vector_store_id"))),
  );

  app.post(
    "/v1/vector_stores/:vector_store_id",
    describeStore("Update a vector store's name, metadata or expires_after", {
      body: updateStoreSchema,
    }),
    async (c) =>
      c.json(
        await updateStore(
          c.var.steps,
          c.req.param("vector_store_id"),
          await readOpenAIJson(c, updateStoreSchema),
        ),
      ),
  );

  app.delete(
    "/v1/vector_stores/:vector_store_id",
    describeStore("Delete a vector store (its files stay)", {
      responses: { 200: json("Deleted", deletedSchema("vector_store.deleted")) },
    }),
    async (c) => c.json(await deleteStore(c.var.steps, c.req.param("vector_store_id"))),
  );

  app.post(
    "/v1/vector_stores/:vector_store_id/search",
    describeStore("Search a vector store", {
      description: "Hybrid retrieval in the store's namespace. `query` a string or up to 10; " +
        "`filters` over the files' attributes (`eq ne gt gte lt lte in`, `and` / `or` nested; " +
        "each and-group of an or is one search, merged); `max_num_results` 1-50; " +
        "`ranking_options.ranker` `auto`, `default-2024-11-15` or `none` (sift's hybrid " +
        "search, RRF scaled to [0, 1]) or a sift strategy (`sift-two-turn`...: `/v2/rerank`'s " +
        "scores); `score_threshold` drops results below it. `rewrite_query: true` searches " +
        "RAG-Fusion's variations (`/v1/fuse`) beside the query, all listed in `search_query`.",
      body: storeSearchSchema,
      responses: { 200: json("One page holding every result", searchPageSchema) },
      errors: [404, 502],
    }),
    async (c) =>
      c.json(
        await searchStore(
          c.var.steps,
          c.req.param("vector_store_id"),
          await readOpenAIJson(c, storeSearchSchema),
        ),
      ),
  );

  mountStoreFiles(app);
  mountFileBatches(app);
}

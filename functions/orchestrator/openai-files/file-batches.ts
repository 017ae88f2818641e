import { z } from "zod";
import { InvalidRequestError, NotFoundError } from "../../../shared/errors.ts";
import type { StepContext } from "../../../shared/steps/transport.ts";
import { attributesSchema } from "./attributes.ts";
import { fileRecordOf } from "./files.ts";
import { BATCH_ID, newId } from "./ids.ts";
import type { ListQuery } from "./list-page.ts";
import { RecordStore } from "./records.ts";
import { addFileToStore, chunkingStrategySchema, listStoreFiles } from "./store-files.ts";
import { type FileCounts, type StoreFileRecord } from "./store-object.ts";
import { storeFileRecords, storeRecordOf } from "./vector-stores.ts";

/** How many files one batch may add: each is indexed before the reply. */
export const MAX_BATCH_FILES = 100;

export const createBatchSchema = z.strictObject({
  file_ids: z.array(z.string()).max(MAX_BATCH_FILES, {
    error: `must hold at most ${MAX_BATCH_FILES} ids`,
  }).optional(),
  files: z.array(z.strictObject({
    file_id: z.string(),
    attributes: attributesSchema.nullish(),
    chunking_strategy: chunkingStrategySchema.optional(),
  })).max(MAX_BATCH_FILES, { error: `must hold at most ${MAX_BATCH_FILES} files` }).optional(),
  attributes: attributesSchema.nullish(),
  chunking_strategy: chunkingStrategySchema.optional(),
});

const batchRecordSchema = z.object({ created_at: z.number().int(), file_ids: z.array(z.string()) });
type BatchRecord = z.infer<typeof batchRecordSchema>;

function batchRecords(context: StepContext, storeId: string): RecordStore<BatchRecord> {
  return new RecordStore(context, `openai-batches-of-${storeId}`, batchRecordSchema);
}

async function batchObject(
  context: StepContext,
  storeId: string,
  id: string,
  record: BatchRecord,
) {
  const files = storeFileRecords(context, storeId);
  const counts: FileCounts = { in_progress: 0, completed: 0, failed: 0, cancelled: 0, total: 0 };
  for (const fileId of record.file_ids) {
    const file = await files.get(fileId);
    if (!file) continue;
    counts[file.status]++;
    counts.total++;
  }
  return {
    id,
    object: "vector_store.files_batch" as const,
    created_at: record.created_at,
    vector_store_id: storeId,
    // Its files were indexed before it was answered: it is done whatever each file's outcome.
    status: "completed" as const,
    file_counts: counts,
  };
}

/**
 * A batch of files into a store: each one added as `POST …/files` adds it
 * (every file found first, so a missing one adds none), with the batch's
 * attributes and chunking unless a `files` entry gives its own. Done before
 * the reply, so the batch is `completed`; its `file_counts` say how each
 * file went.
 */
export async function createBatch(
  context: StepContext,
  storeId: string,
  body: z.infer<typeof createBatchSchema>,
) {
  await storeRecordOf(context, storeId);
  const entries = [
    ...(body.file_ids ?? []).map((file_id) => ({ file_id })),
    ...(body.files ?? []),
  ] as {
    file_id: string;
    attributes?: StoreFileRecord["attributes"] | null;
    chunking_strategy?: z.infer<typeof chunkingStrategySchema>;
  }[];
  if (entries.length === 0 || entries.length > MAX_BATCH_FILES) {
    throw new InvalidRequestError(
      `file_ids: send 1-${MAX_BATCH_FILES} files, in file_ids or files`,
      { param: "file_ids" },
    );
  }
  for (const entry of entries) await fileRecordOf(context, entry.file_id);
  for (const entry of entries) {
    await addFileToStore(context, storeId, {
      file_id: entry.file_id,
      attributes: entry.attributes ?? body.attributes ?? null,
      ...(entry.chunking_strategy ?? body.chunking_strategy
        ? { chunking_strategy: entry.chunking_strategy ?? body.chunking_strategy }
        : {}),
    });
  }
  const id = newId("vsfb_");
  const record = {
    created_at: Math.floor(Date.now() / 1000),
    file_ids: [...new Set(entries.map((entry) => entry.file_id))],
  };
  await batchRecords(context, storeId).put(id, record);
  return await batchObject(context, storeId, id, record);
}

async function batchRecordOf(context: StepContext, storeId: string, id: string) {
  await storeRecordOf(context, storeId);
  const record = BATCH_ID.test(id) ? await batchRecords(context, storeId).get(id) : undefined;
  if (!record) {
    throw new NotFoundError(`No file batch ${id.slice(0, 100)} in vector store ${storeId}`);
  }
  return record;
}

export async function retrieveBatch(context: StepContext, storeId: string, id: string) {
  return await batchObject(context, storeId, id, await batchRecordOf(context, storeId, id));
}

/** The store's files that came with the batch, paged and filtered as the store's list is. */
export async function listBatchFiles(
  context: StepContext,
  storeId: string,
  id: string,
  query: ListQuery & { filter?: StoreFileRecord["status"] | undefined },
) {
  const record = await batchRecordOf(context, storeId, id);
  return await listStoreFiles(context, storeId, query, new Set(record.file_ids));
}

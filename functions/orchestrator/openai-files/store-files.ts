import { z } from "zod";
import { NotFoundError } from "../../../shared/errors.ts";
import { callStep, StepError } from "../../../shared/steps/call.ts";
import { resolveStep, type StepContext } from "../../../shared/steps/transport.ts";
import { attributeFields, attributesSchema } from "./attributes.ts";
import { fileContent, fileRecordOf } from "./files.ts";
import { readDocumentStep } from "../document-steps.ts";
import { FILE_ID } from "./ids.ts";
import { listBody, type ListQuery, pageOfIds } from "./list-page.ts";
import { asCallerError } from "./step-refusal.ts";
import { STORE_FILE_STATUSES, storeFileObject, type StoreFileRecord } from "./store-object.ts";
import { storeFileRecords, storeRecordOf, storeRecords } from "./vector-stores.ts";

export const chunkingStrategySchema = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("auto") }),
  z.strictObject({
    type: z.literal("static"),
    static: z.strictObject({
      max_chunk_size_tokens: z.number().int().min(100, { error: "must be at least 100" })
        .max(4096, { error: "must be at most 4096" }),
      chunk_overlap_tokens: z.number().int().min(0, { error: "must be at least 0" }),
    }).refine((s) => s.chunk_overlap_tokens <= s.max_chunk_size_tokens / 2, {
      error: "chunk_overlap_tokens must be at most half of max_chunk_size_tokens",
      path: ["chunk_overlap_tokens"],
    }),
  }),
], { error: 'must be {type: "auto"} or {type: "static", static: {...}}' });

export const createStoreFileSchema = z.strictObject({
  file_id: z.string({ error: "must be a string" }),
  attributes: attributesSchema.nullish(),
  chunking_strategy: chunkingStrategySchema.optional(),
});

export const updateStoreFileSchema = z.strictObject({ attributes: attributesSchema.nullable() });

export const storeFileListQuery = {
  filter: z.enum(STORE_FILE_STATUSES, { error: `must be ${STORE_FILE_STATUSES.join(", ")}` })
    .optional(),
};

const ingestReplySchema = z.object({ documents: z.array(z.object({ chunks: z.number() })) });
const now = () => Math.floor(Date.now() / 1000);

function noSuchStoreFile(storeId: string, fileId: string): NotFoundError {
  return new NotFoundError(`No file ${fileId.slice(0, 100)} in vector store ${storeId}`);
}

/** The file's text, its name and its attributes into the store's namespace, chunked as asked. */
async function indexFile(
  context: StepContext,
  storeId: string,
  fileId: string,
  record: StoreFileRecord,
): Promise<{ usageBytes: number }> {
  const file = await fileRecordOf(context, fileId);
  const text = await fileContent(context, fileId);
  await callStep(resolveStep("EMBED", context), "/v1/documents", {
    namespace: storeId,
    documents: [{
      id: fileId,
      text,
      title: file.filename.slice(0, 1000),
      metadata: { source: file.filename, ...attributeFields(record.attributes) },
    }],
    chunking: {
      size: record.chunking.max_chunk_size_tokens,
      overlap: record.chunking.chunk_overlap_tokens,
    },
  }, { schema: ingestReplySchema, context, timeoutMs: context.config.steps.timeoutMs });
  return { usageBytes: new TextEncoder().encode(text).byteLength };
}

/**
 * A file into a store: its extracted text chunked into the store's namespace
 * with its attributes on every chunk. The work is done before the reply, so
 * the file is `completed` (or `failed`, with `last_error`) when created;
 * OpenAI's polling helpers read that on their first look.
 */
export async function addFileToStore(
  context: StepContext,
  storeId: string,
  body: z.infer<typeof createStoreFileSchema>,
) {
  const store = await storeRecordOf(context, storeId);
  if (!FILE_ID.test(body.file_id)) {
    throw new NotFoundError(`No such file: ${body.file_id.slice(0, 100)}`);
  }
  await fileRecordOf(context, body.file_id);
  const { size, overlap } = context.config.chunking;
  const strategy = body.chunking_strategy;
  const record: StoreFileRecord = {
    created_at: now(),
    status: "completed",
    last_error: null,
    usage_bytes: 0,
    attributes: body.attributes ?? {},
    chunking: strategy?.type === "static"
      ? strategy.static
      : { max_chunk_size_tokens: size, chunk_overlap_tokens: overlap },
  };
  try {
    record.usage_bytes = (await indexFile(context, storeId, body.file_id, record)).usageBytes;
  } catch (error) {
    const refused = asCallerError(error);
    if (refused === error || context.signal.aborted) throw error;
    record.status = "failed";
    record.last_error = {
      code: "invalid_file",
      message: refused instanceof Error ? refused.message : "the file could not be indexed",
    };
  }
  await storeFileRecords(context, storeId).put(body.file_id, record);
  await storeRecords(context).put(storeId, { ...store, last_active_at: now() });
  return storeFileObject(storeId, body.file_id, record);
}

export async function storeFileRecordOf(context: StepContext, storeId: string, fileId: string) {
  await storeRecordOf(context, storeId);
  const record = FILE_ID.test(fileId)
    ? await storeFileRecords(context, storeId).get(fileId)
    : undefined;
  if (!record) throw noSuchStoreFile(storeId, fileId);
  return record;
}

export async function retrieveStoreFile(context: StepContext, storeId: string, fileId: string) {
  return storeFileObject(storeId, fileId, await storeFileRecordOf(context, storeId, fileId));
}

/** New attributes on every chunk of the file (it is indexed again) and in its record. */
export async function updateStoreFile(
  context: StepContext,
  storeId: string,
  fileId: string,
  body: z.infer<typeof updateStoreFileSchema>,
) {
  const record = { ...await storeFileRecordOf(context, storeId, fileId) };
  record.attributes = body.attributes ?? {};
  if (record.status === "completed") await indexFile(context, storeId, fileId, record);
  await storeFileRecords(context, storeId).put(fileId, record);
  return storeFileObject(storeId, fileId, record);
}

export async function listStoreFiles(
  context: StepContext,
  storeId: string,
  query: ListQuery & { filter?: StoreFileRecord["status"] | undefined },
  only?: ReadonlySet<string>,
) {
  await storeRecordOf(context, storeId);
  const records = storeFileRecords(context, storeId);
  const wanted = (await records.ids()).filter((id) => !only || only.has(id));
  const all = await Promise.all(wanted.map(async (id) => ({ id, record: await records.get(id) })));
  const kept = all.filter(({ record }) =>
    record && (!query.filter || record.status === query.filter)
  );
  const { ids, hasMore } = pageOfIds(kept.map(({ id }) => id), query);
  const byId = new Map(kept.map(({ id, record }) => [id, record!]));
  return listBody(ids.map((id) => storeFileObject(storeId, id, byId.get(id)!)), hasMore);
}

async function deleteDocument(context: StepContext, namespace: string, id: string) {
  const path = `/v1/documents/${encodeURIComponent(id)}?` + new URLSearchParams({ namespace });
  await callStep(resolveStep("EMBED", context), path, undefined, {
    schema: z.unknown(),
    context,
    timeoutMs: context.config.steps.timeoutMs,
    method: "DELETE",
  }).catch((error) => {
    if (!(error instanceof StepError && error.stepStatus === 404)) throw error;
  });
}

/** The file's chunks leave the store, then its record (the file itself stays). */
export async function removeFileFromStore(context: StepContext, storeId: string, fileId: string) {
  await storeFileRecordOf(context, storeId, fileId);
  await deleteDocument(context, storeId, fileId);
  await storeFileRecords(context, storeId).delete(fileId);
  return { id: fileId, object: "vector_store.file.deleted" as const, deleted: true as const };
}

/** Every file's chunks and record, then the store's record (the files themselves stay). */
export async function deleteStore(context: StepContext, storeId: string) {
  await storeRecordOf(context, storeId);
  const records = storeFileRecords(context, storeId);
  for (const fileId of await records.ids()) {
    await deleteDocument(context, storeId, fileId);
    await records.delete(fileId);
  }
  await storeRecords(context).delete(storeId);
  return { id: storeId, object: "vector_store.deleted" as const, deleted: true as const };
}

/** The store file's chunks, as OpenAI's content page: each chunk's text, in order. */
export async function storeFileContent(context: StepContext, storeId: string, fileId: string) {
  await storeFileRecordOf(context, storeId, fileId);
  const document = await readDocumentStep(resolveStep("EMBED", context), context, {
    namespace: storeId,
    id: fileId,
  });
  return {
    object: "vector_store.file_content.page" as const,
    data: (document?.data ?? []).map((chunk) => ({ type: "text" as const, text: chunk.text })),
    has_more: false,
    next_page: null,
  };
}

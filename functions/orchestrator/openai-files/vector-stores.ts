import { z } from "zod";
import { NotFoundError } from "../../../shared/errors.ts";
import type { StepContext } from "../../../shared/steps/transport.ts";
import { newId, STORE_ID } from "./ids.ts";
import { listBody, type ListQuery, pageOfIds } from "./list-page.ts";
import { RecordStore } from "./records.ts";
import {
  expiresAfterSchema,
  type FileCounts,
  metadataSchema,
  STORE_RECORDS_NAMESPACE,
  type StoreFileRecord,
  storeFileRecordSchema,
  storeFilesNamespace,
  storeObject,
  type StoreRecord,
  storeRecordSchema,
} from "./store-object.ts";

export const createStoreSchema = z.strictObject({
  name: z.string({ error: "must be a string" }).max(256).nullish(),
  metadata: metadataSchema.nullish(),
  expires_after: expiresAfterSchema.nullish(),
  file_ids: z.array(z.string()).max(500).nullish(),
  chunking_strategy: z.unknown().optional(),
  description: z.string().max(512).nullish(),
});

export const updateStoreSchema = z.strictObject({
  name: z.string({ error: "must be a string" }).max(256).nullish(),
  metadata: metadataSchema.nullish(),
  expires_after: expiresAfterSchema.nullish(),
});

export function storeRecords(context: StepContext): RecordStore<StoreRecord> {
  return new RecordStore(context, STORE_RECORDS_NAMESPACE, storeRecordSchema);
}

export function storeFileRecords(context: StepContext, storeId: string) {
  return new RecordStore<StoreFileRecord>(
    context,
    storeFilesNamespace(storeId),
    storeFileRecordSchema,
  );
}

const now = () => Math.floor(Date.now() / 1000);

/** The store's record, or a 404 naming it (a malformed id is never looked up). */
export async function storeRecordOf(context: StepContext, id: string): Promise<StoreRecord> {
  const record = STORE_ID.test(id) ? await storeRecords(context).get(id) : undefined;
  if (!record) throw new NotFoundError(`No such vector store: ${id.slice(0, 100)}`);
  return record;
}

/** Its files' counts by status and the bytes of text they hold. */
async function filesSummary(context: StepContext, storeId: string) {
  const records = storeFileRecords(context, storeId);
  const files = await Promise.all((await records.ids()).map((id) => records.get(id)));
  const counts: FileCounts = { in_progress: 0, completed: 0, failed: 0, cancelled: 0, total: 0 };
  let usageBytes = 0;
  for (const file of files) {
    if (!file) continue;
    counts[file.status]++;
    counts.total++;
    usageBytes += file.usage_bytes;
  }
  return { counts, usageBytes };
}

export async function storeObjectOf(context: StepContext, id: string, record?: StoreRecord) {
  return storeObject(
    id,
    record ?? await storeRecordOf(context, id),
    await filesSummary(context, id),
  );
}

export async function createStore(context: StepContext, body: z.infer<typeof createStoreSchema>) {
  const id = newId("vs_");
  const created = now();
  const record: StoreRecord = {
    name: body.name ?? "",
    created_at: created,
    last_active_at: created,
    metadata: body.metadata ?? {},
    expires_after: body.expires_after ?? null,
  };
  await storeRecords(context).put(id, record);
  return { id, record };
}

export async function updateStore(
  context: StepContext,
  id: string,
  body: z.infer<typeof updateStoreSchema>,
) {
  const record = await storeRecordOf(context, id);
  const updated: StoreRecord = {
    ...record,
    ...(body.name != null ? { name: body.name } : {}),
    ...(body.metadata != null ? { metadata: body.metadata } : {}),
    ...(body.expires_after !== undefined ? { expires_after: body.expires_after } : {}),
    last_active_at: now(),
  };
  await storeRecords(context).put(id, updated);
  return await storeObjectOf(context, id, updated);
}

export async function listStores(context: StepContext, query: ListQuery) {
  const records = storeRecords(context);
  const { ids, hasMore } = pageOfIds(await records.ids(), query);
  const stores = await Promise.all(ids.map(async (id) => {
    const record = await records.get(id);
    return record ? await storeObjectOf(context, id, record) : undefined;
  }));
  return listBody(stores.filter((store) => store !== undefined), hasMore);
}

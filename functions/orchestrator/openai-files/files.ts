import { InvalidRequestError, NotFoundError } from "../../../shared/errors.ts";
import type { FormPart } from "../../../shared/http/multipart.ts";
import { callStep, StepError } from "../../../shared/steps/call.ts";
import { resolveStep, type StepContext } from "../../../shared/steps/transport.ts";
import { z } from "zod";
import { readDocumentStep } from "../document-steps.ts";
import {
  FILE_PURPOSES,
  FILE_RECORDS_NAMESPACE,
  fileObject,
  type FileRecord,
  fileRecordSchema,
  FILES_NAMESPACE,
} from "./file-object.ts";
import { FILE_ID, newId } from "./ids.ts";
import { joinChunks } from "./join-chunks.ts";
import { listBody, type ListQuery, pageOfIds } from "./list-page.ts";
import { RecordStore } from "./records.ts";
import { asCallerError } from "./step-refusal.ts";

const ingestReplySchema = z.object({ namespace: z.string() });

export function fileRecords(context: StepContext): RecordStore<FileRecord> {
  return new RecordStore(context, FILE_RECORDS_NAMESPACE, fileRecordSchema);
}

/** `POST /v1/files`'s form: one `file` part and its `purpose`; anything else is named. */
export function readFileForm(parts: readonly FormPart[]) {
  let file: Extract<FormPart, { kind: "file" }> | undefined;
  let purpose: string | undefined;
  for (const part of parts) {
    if (part.kind === "file" && part.name === "file" && !file) file = part;
    else if (part.kind === "field" && part.name === "purpose") purpose = part.value;
    else {
      throw new InvalidRequestError(
        `${part.name.slice(0, 100)}: unknown form field; send one file part and purpose`,
        { param: part.name.slice(0, 100) },
      );
    }
  }
  if (!file) throw new InvalidRequestError("file: send one file part", { param: "file" });
  if (!FILE_PURPOSES.includes(purpose as FileRecord["purpose"])) {
    throw new InvalidRequestError(
      `purpose: must be ${FILE_PURPOSES.join(" or ")} (sift keeps files for retrieval)` +
        (purpose === undefined ? "" : `; got "${purpose.slice(0, 50)}"`),
      { param: "purpose" },
    );
  }
  return { file, purpose: purpose as FileRecord["purpose"] };
}

/**
 * A new file: its bytes go to the embed step as an upload (the same parsers,
 * limits and refusals as `/v1/documents`) into the tenant's files namespace,
 * then its record. A file the embed step refuses is the caller's 4xx, and
 * nothing is kept.
 */
export async function createFile(
  context: StepContext,
  input: ReturnType<typeof readFileForm>,
) {
  const id = newId("file-");
  const form = new FormData();
  form.append("id", id);
  form.append("file", new Blob([input.file.bytes as Uint8Array<ArrayBuffer>]), input.file.filename);
  form.append("namespace", FILES_NAMESPACE);
  await callStep(resolveStep("EMBED", context), "/v1/documents", form, {
    schema: ingestReplySchema,
    context,
    timeoutMs: context.config.steps.timeoutMs,
  }).catch((error) => {
    throw asCallerError(error);
  });
  const record: FileRecord = {
    filename: input.file.filename,
    bytes: input.file.bytes.byteLength,
    purpose: input.purpose,
    created_at: Math.floor(Date.now() / 1000),
  };
  await fileRecords(context).put(id, record);
  return fileObject(id, record);
}

function noSuchFile(id: string): NotFoundError {
  return new NotFoundError(`No such file: ${id.slice(0, 100)}`);
}

/** The file's record, or a 404 naming the id (a malformed id is never looked up). */
export async function fileRecordOf(context: StepContext, id: string): Promise<FileRecord> {
  const record = FILE_ID.test(id) ? await fileRecords(context).get(id) : undefined;
  if (!record) throw noSuchFile(id);
  return record;
}

export async function retrieveFile(context: StepContext, id: string) {
  return fileObject(id, await fileRecordOf(context, id));
}

export async function listFiles(
  context: StepContext,
  query: ListQuery & { purpose?: string | undefined },
) {
  const records = fileRecords(context);
  const all = await records.ids();
  // A purpose filter needs every record read; without one only the page's are.
  const wanted = query.purpose === undefined
    ? all
    : await idsWithPurpose(records, all, query.purpose);
  const { ids, hasMore } = pageOfIds(wanted, query);
  const files = await Promise.all(ids.map(async (id) => {
    const record = await records.get(id);
    return record ? fileObject(id, record) : undefined;
  }));
  return listBody(files.filter((file) => file !== undefined), hasMore);
}

async function idsWithPurpose(records: RecordStore<FileRecord>, ids: string[], purpose: string) {
  const kept: string[] = [];
  for (const id of ids) if ((await records.get(id))?.purpose === purpose) kept.push(id);
  return kept;
}

/** The text sift extracted from the file (not its original bytes: sift keeps what it parsed). */
export async function fileContent(context: StepContext, id: string): Promise<string> {
  await fileRecordOf(context, id);
  const document = await readDocumentStep(resolveStep("EMBED", context), context, {
    namespace: FILES_NAMESPACE,
    id,
  });
  const chunks = (document?.data ?? []).map((chunk) => chunk.text);
  return joinChunks(chunks, context.config.chunking.overlap);
}

/** Deletes the file's text and record (stores that hold it keep their copy, as OpenAI's do). */
export async function deleteFile(context: StepContext, id: string) {
  await fileRecordOf(context, id);
  const path = `/v1/documents/${encodeURIComponent(id)}?` +
    new URLSearchParams({ namespace: FILES_NAMESPACE });
  await callStep(resolveStep("EMBED", context), path, undefined, {
    schema: z.unknown(),
    context,
    timeoutMs: context.config.steps.timeoutMs,
    method: "DELETE",
  }).catch((error) => {
    // Its text already gone: the record still goes.
    if (!(error instanceof StepError && error.stepStatus === 404)) throw error;
  });
  await fileRecords(context).delete(id);
  return { id, object: "file" as const, deleted: true };
}

import { InvalidRequestError } from "../../shared/errors.ts";
import type { FormPart } from "../../shared/http/multipart.ts";
import { documentIdSchema, namespaceSchema } from "../../shared/schemas.ts";
import { fileDocumentId, sharedIds } from "../../shared/documents/file-id.ts";

/** A `file` part and the id of the document it becomes. */
export type UploadedFile = Extract<FormPart, { kind: "file" }> & { id: string };

/** An upload's form, checked: its files with their ids, the namespace, whether to skip unchanged files. */
export type UploadForm = { files: UploadedFile[]; namespace: string; skipUnchanged: boolean };

const FIELDS = "send file parts, and id, namespace and skip_unchanged fields";

/**
 * Reads an upload's parts. A file's id is the `id` field sent just before
 * it, else its name's (`fileDocumentId`): fields pair with files by order,
 * as `curl -F id=alpha/README -F file=@alpha/README` and `FormData.append`
 * keep it. Two files with one id are refused, naming both: one would
 * silently replace the other.
 */
export function readUploadForm(parts: readonly FormPart[]): UploadForm {
  const fields: Record<"namespace" | "skip_unchanged", string | undefined> = {
    namespace: undefined,
    skip_unchanged: undefined,
  };
  let nextId: string | undefined;
  const files: UploadedFile[] = [];
  for (const part of parts) {
    if (part.kind === "file" && part.name === "file") {
      files.push({ ...part, id: nextId ?? fileDocumentId(part.filename) });
      nextId = undefined;
    } else if (part.kind === "field" && part.name === "id") {
      if (nextId !== undefined) throw idWithoutFile(nextId);
      nextId = checkedId(part.value);
    } else if (
      part.kind === "field" && (part.name === "namespace" || part.name === "skip_unchanged")
    ) {
      fields[part.name] = part.value;
    } else {
      throw new InvalidRequestError(`unknown form field "${part.name.slice(0, 100)}": ${FIELDS}`);
    }
  }
  if (nextId !== undefined) throw idWithoutFile(nextId);
  if (files.length === 0) {
    throw new InvalidRequestError("file: send at least one file part (curl -F file=@paper.pdf)");
  }
  const [shared] = sharedIds(files);
  if (shared) {
    const [id, [first, second]] = shared as [string, [UploadedFile, UploadedFile]];
    const at = (file: UploadedFile) => files.indexOf(file) + 1;
    throw new InvalidRequestError(
      `file: ${first.filename} (file ${at(first)}) and ${second.filename} (file ${at(second)}) ` +
        `are both document "${id}": send an id field before each`,
    );
  }
  const namespace = namespaceSchema.safeParse(fields.namespace || undefined);
  if (!namespace.success) {
    throw new InvalidRequestError(`namespace: ${namespace.error.issues[0]?.message}`);
  }
  return { files, namespace: namespace.data, skipUnchanged: skipUnchanged(fields.skip_unchanged) };
}

function checkedId(value: string): string {
  const id = documentIdSchema.safeParse(value);
  if (!id.success) throw new InvalidRequestError(`id: ${id.error.issues[0]?.message}`);
  return id.data;
}

function idWithoutFile(id: string): InvalidRequestError {
  return new InvalidRequestError(
    `id: "${id}" is followed by no file part: send each id field just before its file`,
  );
}

function skipUnchanged(value: string | undefined): boolean {
  if (value === undefined || value === "false") return false;
  if (value === "true") return true;
  throw new InvalidRequestError("skip_unchanged: must be true or false");
}

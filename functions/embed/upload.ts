import type { Context } from "hono";
import type { AppEnv } from "../../shared/http/server.ts";
import { LIMITS } from "../../shared/limits.ts";
import { namespaceSchema } from "../../shared/schemas.ts";
import { InvalidRequestError } from "../../shared/errors.ts";
import { DocumentRefusedError } from "../../shared/documents/refusal.ts";
import { type DocumentInput, ingestDocuments } from "../../shared/documents/ingest.ts";
import { type FormPart, readMultipart } from "../../shared/http/multipart.ts";
import { parseFile } from "./parsers/index.ts";

/** Room for the form's own bytes (boundaries, part headers, fields) beside the files. */
const FORM_OVERHEAD_BYTES = 1024 * 1024;

/** A document id from a file's name: `Tide Tables.pdf` → `Tide-Tables`. */
export function fileDocumentId(filename: string): string {
  return filename.replace(/\.[^.]+$/, "").replace(/[^A-Za-z0-9._:-]+/g, "-")
    .replace(/^[.]+$/, "").slice(0, 200) || "document";
}

/** A parsed file as a document: its blocks, its title, and its name kept as `source`. */
async function documentOfFile(
  part: Extract<FormPart, { kind: "file" }>,
  limits: AppEnv["Variables"]["config"]["files"],
): Promise<DocumentInput> {
  const parsed = await parseFile(part.bytes, part.filename, limits);
  const text = parsed.blocks.map((block) => block.text).join("\n\n");
  if (text.length > LIMITS.documentChars) {
    throw new DocumentRefusedError(
      part.filename,
      "too_large",
      `holds ${text.length} characters of text, over the limit of ${LIMITS.documentChars}`,
    );
  }
  return {
    id: fileDocumentId(part.filename),
    text,
    title: parsed.title ?? part.filename,
    metadata: { source: part.filename, type: parsed.kind },
    blocks: parsed.blocks,
  };
}

/**
 * `POST /v1/documents` as `multipart/form-data` (what `curl -F file=@paper.pdf`
 * and browsers send): one or more `file` parts and an optional `namespace`
 * field. Every file is read within `FILE_MAX_BYTES` and parsed before
 * anything is stored, so one refused file stores none of them.
 */
export async function ingestUpload(c: Context<AppEnv>, boundary: string) {
  const limits = c.var.config.files;
  const parts = await readMultipart(c.req.raw, boundary, {
    maxFileBytes: limits.maxBytes,
    maxFiles: LIMITS.documentsPerIngest,
    maxTotalBytes: Math.max(LIMITS.ingestBodyBytes, limits.maxBytes) + FORM_OVERHEAD_BYTES,
    fileTooLarge: (filename) =>
      new DocumentRefusedError(
        filename,
        "too_large",
        `is over the limit of ${limits.maxBytes} bytes (FILE_MAX_BYTES)`,
      ),
  });
  let namespaceValue: string | undefined;
  const files: Extract<FormPart, { kind: "file" }>[] = [];
  for (const part of parts) {
    if (part.kind === "file" && part.name === "file") files.push(part);
    else if (part.kind === "field" && part.name === "namespace") namespaceValue = part.value;
    else {
      throw new InvalidRequestError(
        `unknown form field "${part.name.slice(0, 100)}": send file parts and a namespace field`,
      );
    }
  }
  if (files.length === 0) {
    throw new InvalidRequestError("file: send at least one file part (curl -F file=@paper.pdf)");
  }
  const namespace = namespaceSchema.safeParse(namespaceValue || undefined);
  if (!namespace.success) {
    throw new InvalidRequestError(`namespace: ${namespace.error.issues[0]?.message}`);
  }
  const documents: DocumentInput[] = [];
  for (const file of files) documents.push(await documentOfFile(file, limits));
  return await ingestDocuments(
    c.var.deps,
    { documents, namespace: namespace.data, chunking: c.var.config.chunking },
    c.req.raw.signal,
  );
}

import type { Context } from "hono";
import type { AppEnv } from "../../shared/http/app-env.ts";
import { LIMITS } from "../../shared/limits.ts";
import { DocumentRefusedError } from "../../shared/documents/refusal.ts";
import {
  type DocumentInput,
  ingestDocuments,
  type IngestResult,
} from "../../shared/documents/ingest.ts";
import { readMultipart } from "../../shared/http/multipart.ts";
import { sha256HexOfBytes } from "../../shared/hash.ts";
import type { VectorIndex } from "../../shared/vector/port.ts";
import { parseFile } from "./parsers/index.ts";
import { readUploadForm, type UploadedFile } from "./upload-form.ts";

/** Room for the form's own bytes (boundaries, part headers, fields) beside the files. */
const FORM_OVERHEAD_BYTES = 1024 * 1024;

/**
 * A parsed file as a document: its blocks, its title, its name kept as
 * `source`, and the SHA-256 of its bytes as `content_sha256`.
 */
async function documentOfFile(
  part: UploadedFile,
  contentSha256: string,
  limits: AppEnv["Variables"]["config"]["files"],
  signal: AbortSignal,
): Promise<DocumentInput> {
  // The request's signal: a caller that goes away ends its parse (its child process, on Deno).
  const parsed = await parseFile(part.bytes, part.filename, limits, signal);
  const text = parsed.blocks.map((block) => block.text).join("\n\n");
  if (text.length > LIMITS.documentChars) {
    throw new DocumentRefusedError(
      part.filename,
      "too_large",
      `holds ${text.length} characters of text, over the limit of ${LIMITS.documentChars}`,
    );
  }
  return {
    id: part.id,
    text,
    title: parsed.title ?? part.filename,
    metadata: { source: part.filename, type: parsed.kind, content_sha256: contentSha256 },
    blocks: parsed.blocks,
  };
}

/** The `content_sha256` the stored document was ingested with, if it has one. */
async function storedContentSha256(
  index: Pick<VectorIndex, "getDocument">,
  id: string,
  namespace: string,
): Promise<string | undefined> {
  const [first] = await index.getDocument(id, { namespace });
  const stored = first?.metadata.content_sha256;
  return typeof stored === "string" ? stored : undefined;
}

/**
 * `POST /v1/documents` as `multipart/form-data` (what `curl -F file=@paper.pdf`
 * and browsers send): one or more `file` parts, each after an optional `id`
 * field, and optional `namespace` and `skip_unchanged` fields (see
 * `readUploadForm`). Every file is read within `FILE_MAX_BYTES` and parsed
 * before anything is stored, so one refused file stores none of them. With
 * `skip_unchanged=true`, a file whose bytes hash to the `content_sha256` its
 * stored document has is neither parsed nor stored again, and is listed in
 * `unchanged`.
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
    timeoutMs: c.var.config.bodyReadTimeoutMs,
  });
  const form = readUploadForm(parts);
  const unchanged: string[] = [];
  const documents: DocumentInput[] = [];
  for (const file of form.files) {
    const contentSha256 = await sha256HexOfBytes(file.bytes);
    const stored = form.skipUnchanged
      ? await storedContentSha256(c.var.deps.index, file.id, form.namespace)
      : undefined;
    if (stored === contentSha256) unchanged.push(file.id);
    else documents.push(await documentOfFile(file, contentSha256, limits, c.req.raw.signal));
  }
  const result: IngestResult = documents.length
    ? await ingestDocuments(
      c.var.deps,
      { documents, namespace: form.namespace, chunking: c.var.config.chunking },
      c.req.raw.signal,
    )
    : { namespace: form.namespace, documents: [], chunks: 0 };
  return form.skipUnchanged ? { ...result, unchanged } : result;
}

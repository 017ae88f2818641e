import {
  MaxFileSizeExceededError,
  MaxHeaderSizeExceededError,
  MaxPartsExceededError,
  MaxTotalSizeExceededError,
  MultipartParseError,
  MultipartParser,
  type MultipartPart,
} from "@remix-run/multipart-parser";
import {
  InvalidRequestError,
  PayloadTooLargeError,
  RequestTimeoutError,
  SiftError,
} from "../errors.ts";
import { BODY_READ_TIMEOUT_MS, formatBytes } from "./body.ts";
import { ClientGoneError } from "./client-gone.ts";
import { PartInProgress } from "./part-in-progress.ts";

/** One part of a `multipart/form-data` body: a field's value or a file's bytes and name. */
export type FormPart =
  | { kind: "field"; name: string; value: string }
  | { kind: "file"; name: string; filename: string; bytes: Uint8Array };

export type MultipartLimits = {
  /** Bytes one file part may hold; over it, `fileTooLarge(filename)` is thrown. */
  maxFileBytes: number;
  maxFiles: number;
  /** Bytes the whole body may hold. */
  maxTotalBytes: number;
  fileTooLarge: (filename: string) => SiftError;
  /** How long the whole body may take to arrive (`BODY_READ_TIMEOUT_MS`); then 408. */
  timeoutMs?: number | undefined;
};

const MAX_FIELD_BYTES = 64 * 1024;
const MAX_HEADER_BYTES = 16 * 1024;
/** Fields beside one per file (a file's `id` comes as a field before it): the namespace and such. */
const MAX_OTHER_FIELDS = 20;

/** The fields a form may hold: one per file it may hold, and a few more. */
const maxFieldsOf = (limits: MultipartLimits) => limits.maxFiles + MAX_OTHER_FIELDS;

/** The boundary of a `multipart/form-data` content type, or undefined for any other type. */
export function multipartBoundary(contentType: string | null | undefined): string | undefined {
  const [essence, ...parameters] = (contentType ?? "").split(";");
  if (essence?.trim().toLowerCase() !== "multipart/form-data") return undefined;
  for (const parameter of parameters) {
    const match = /^\s*boundary\s*=\s*"?([^";]{1,70})"?\s*$/i.exec(parameter);
    if (match) return match[1];
  }
  throw new InvalidRequestError("content-type: multipart/form-data needs a boundary");
}

/** The part's field name and file name from its `content-disposition`. */
function dispositionOf(part: MultipartPart): { name: string; filename?: string } {
  let line: string | undefined;
  try {
    line = part.headers["content-disposition"];
  } catch {
    throw new InvalidRequestError("body: a multipart part's headers are not UTF-8");
  }
  const name = line && /;\s*name="([^"]*)"/i.exec(line)?.[1];
  if (!line || name === undefined || name === null) {
    throw new InvalidRequestError("body: a multipart part has no content-disposition name");
  }
  const extended = /;\s*filename\*=UTF-8''([^;]+)/i.exec(line)?.[1];
  const plain = /;\s*filename="([^"]*)"/i.exec(line)?.[1];
  let filename = plain;
  if (extended) {
    try {
      filename = decodeURIComponent(extended);
    } catch { /* keep the plain one */ }
  }
  if (filename === undefined) return { name };
  // A browser may send a path; only the last part is the file's name. It is kept as the
  // document's `source`: a NUL (`filename*=UTF-8''a%00b`) could not be stored in every index.
  const base = filename.replaceAll("%22", '"').replaceAll("\u0000", "").split(/[\\/]/).pop()!
    .trim().slice(0, 255);
  return { name, filename: base || "upload" };
}

function timedOut(timeoutMs: number): RequestTimeoutError {
  return new RequestTimeoutError(
    `The request body did not arrive within ${timeoutMs / 1000} s; send it whole, faster`,
  );
}

function tooLarge(maxBytes: number): PayloadTooLargeError {
  return new PayloadTooLargeError(`The request body exceeds the ${formatBytes(maxBytes)} limit`);
}

/** A form field's limit: no more than a file's. */
function fieldTooLarge(name: string, limits: MultipartLimits): InvalidRequestError {
  const maxBytes = Math.min(MAX_FIELD_BYTES, limits.maxFileBytes);
  return new InvalidRequestError(`${name}: must be at most ${maxBytes} bytes`);
}

/** A part the parser has read whole, as a field or a file, within the form's limits. */
function formPart(part: MultipartPart, earlier: FormPart[], limits: MultipartLimits): FormPart {
  const { name, filename } = dispositionOf(part);
  const files = earlier.filter((each) => each.kind === "file").length;
  if (filename !== undefined) {
    if (files >= limits.maxFiles) {
      throw new InvalidRequestError(`file: at most ${limits.maxFiles} files per request`);
    }
    if (part.size > limits.maxFileBytes) throw limits.fileTooLarge(filename);
    return { kind: "file", name, filename, bytes: part.bytes };
  }
  if (earlier.length - files >= maxFieldsOf(limits)) {
    throw new InvalidRequestError(`body: at most ${maxFieldsOf(limits)} form fields`);
  }
  if (part.size > Math.min(MAX_FIELD_BYTES, limits.maxFileBytes)) throw fieldTooLarge(name, limits);
  return { kind: "field", name, value: new TextDecoder().decode(part.bytes) };
}

/** The parser's refusals as sift's errors; a refused part is named from its headers. */
function refusalOf(error: unknown, inProgress: PartInProgress, limits: MultipartLimits): unknown {
  if (error instanceof MaxFileSizeExceededError) {
    const part = inProgress.part();
    if (!part) {
      return new PayloadTooLargeError(
        `body: a multipart part exceeds the ${formatBytes(limits.maxFileBytes)} limit`,
      );
    }
    const { name, filename } = dispositionOf(part);
    return filename === undefined ? fieldTooLarge(name, limits) : limits.fileTooLarge(filename);
  }
  if (error instanceof MaxTotalSizeExceededError) return tooLarge(limits.maxTotalBytes);
  if (error instanceof MaxHeaderSizeExceededError) {
    return new InvalidRequestError("body: a multipart part's headers are too long");
  }
  if (error instanceof MaxPartsExceededError) {
    return new InvalidRequestError(
      `body: at most ${limits.maxFiles} files and ${maxFieldsOf(limits)} form fields`,
    );
  }
  if (error instanceof MultipartParseError) {
    return new InvalidRequestError(`body: not a multipart/form-data body (${error.message})`);
  }
  return error;
}

/** Whether the parser has read the closing delimiter (its `finish()` throws until then). */
function finished(parser: MultipartParser): boolean {
  try {
    parser.finish();
    return true;
  } catch {
    return false;
  }
}

/**
 * Reads a `multipart/form-data` body as it streams in, with
 * `@remix-run/multipart-parser` (each byte scanned once), holding each part's
 * bytes only up to its limit: a file over `maxFileBytes` is refused (with
 * `fileTooLarge`) as soon as it passes the limit, before the rest of it is
 * read, and so is a body over `maxTotalBytes` (413). A body not whole within
 * `timeoutMs` (a client that stalls mid-body) is cancelled with a 408.
 *
 * @example
 * const parts = await readMultipart(request, boundary, { ...limits, timeoutMs: 30_000 });
 */
export async function readMultipart(
  request: Request,
  boundary: string,
  limits: MultipartLimits,
): Promise<FormPart[]> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limits.maxTotalBytes) throw tooLarge(limits.maxTotalBytes);
  if (!request.body) throw new InvalidRequestError("body: the multipart body is empty");
  const timeoutMs = limits.timeoutMs ?? BODY_READ_TIMEOUT_MS;
  const reader = request.body.getReader();
  let late = false;
  // Cancelling the body ends the read that waits on it: a stalled client holds nothing for long.
  const timer = setTimeout(() => {
    late = true;
    reader.cancel().catch(() => {});
  }, timeoutMs);
  const parser = new MultipartParser(boundary, {
    maxHeaderSize: MAX_HEADER_BYTES,
    maxFileSize: limits.maxFileBytes,
    // One more than the form may hold: the part over a limit is refused by name, below.
    maxParts: limits.maxFiles + maxFieldsOf(limits) + 1,
    maxTotalSize: limits.maxTotalBytes,
  });
  const inProgress = new PartInProgress(boundary, MAX_HEADER_BYTES);
  const parts: FormPart[] = [];
  let total = 0;
  try {
    while (!finished(parser)) {
      // Workers rejects the read a cancel ends, where Deno resolves it as done.
      const { done, value } = await reader.read().catch((error) => {
        throw late ? timedOut(timeoutMs) : new ClientGoneError(error);
      });
      if (late) throw timedOut(timeoutMs);
      if (done) {
        throw new InvalidRequestError("body: the multipart body ended before its closing boundary");
      }
      total += value.byteLength;
      if (total > limits.maxTotalBytes) throw tooLarge(limits.maxTotalBytes);
      if (value.byteLength === 0) continue;
      inProgress.add(value);
      for (const part of parser.write(value)) {
        inProgress.partEnded();
        parts.push(formPart(part, parts, limits));
      }
    }
    return parts;
  } catch (error) {
    throw refusalOf(error, inProgress, limits);
  } finally {
    clearTimeout(timer);
    // What follows the closing delimiter, or the rest of a refused body, is never read.
    await reader.cancel().catch(() => {});
  }
}

import { InvalidRequestError, PayloadTooLargeError, SiftError } from "../errors.ts";
import { formatBytes } from "./body.ts";

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
};

const MAX_FIELD_BYTES = 64 * 1024;
const MAX_HEADER_BYTES = 16 * 1024;
const MAX_FIELDS = 20;
const encoder = new TextEncoder();
const CRLFCRLF = encoder.encode("\r\n\r\n");

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

function indexOf(haystack: Uint8Array, needle: Uint8Array, from = 0): number {
  const first = needle[0]!;
  for (let at = haystack.indexOf(first, from); at !== -1; at = haystack.indexOf(first, at + 1)) {
    if (at + needle.length > haystack.length) return -1;
    let match = true;
    for (let offset = 1; offset < needle.length && match; offset++) {
      match = haystack[at + offset] === needle[offset];
    }
    if (match) return at;
  }
  return -1;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const joined = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.byteLength;
  }
  return joined;
}

/** The part's field name and file name from its `content-disposition`. */
function dispositionOf(headers: string): { name: string; filename?: string } {
  const line = headers.split("\r\n").find((header) => /^content-disposition:/i.test(header));
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
  // A browser may send a path; only the last part is the file's name.
  const base = filename.replaceAll("%22", '"').split(/[\\/]/).pop()!.trim().slice(0, 255);
  return { name, filename: base || "upload" };
}

/**
 * Reads a `multipart/form-data` body as it streams in, holding each part's
 * bytes only up to its limit: a file over `maxFileBytes` is refused (with
 * `fileTooLarge`) as soon as it passes the limit, before the rest of it is
 * read, and so is a body over `maxTotalBytes` (413).
 *
 * @example
 * const parts = await readMultipart(request, boundary, limits);
 */
export async function readMultipart(
  request: Request,
  boundary: string,
  limits: MultipartLimits,
): Promise<FormPart[]> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  const tooLarge = () =>
    new PayloadTooLargeError(
      `The request body exceeds the ${formatBytes(limits.maxTotalBytes)} limit`,
    );
  if (declared > limits.maxTotalBytes) throw tooLarge();
  if (!request.body) throw new InvalidRequestError("body: the multipart body is empty");
  const opening = encoder.encode(`--${boundary}`);
  const delimiter = encoder.encode(`\r\n--${boundary}`);
  const reader = request.body.getReader();
  const parts: FormPart[] = [];
  let pending: Uint8Array = new Uint8Array();
  let state = "preamble" as "preamble" | "after" | "headers" | "body" | "done";
  let current: { name: string; filename?: string; chunks: Uint8Array[]; size: number } | undefined;
  let total = 0;

  const finishPart = () => {
    if (!current) return;
    const bytes = concat(current.chunks);
    if (current.filename !== undefined) {
      parts.push({ kind: "file", name: current.name, filename: current.filename, bytes });
    } else {
      parts.push({ kind: "field", name: current.name, value: new TextDecoder().decode(bytes) });
    }
    current = undefined;
  };
  const addContent = (bytes: Uint8Array) => {
    if (!current || bytes.byteLength === 0) return;
    current.size += bytes.byteLength;
    if (current.filename !== undefined && current.size > limits.maxFileBytes) {
      throw limits.fileTooLarge(current.filename);
    }
    if (current.filename === undefined && current.size > MAX_FIELD_BYTES) {
      throw new InvalidRequestError(`${current.name}: must be at most ${MAX_FIELD_BYTES} bytes`);
    }
    current.chunks.push(bytes.slice());
  };

  /** Moves through `pending` as far as it can; false when it needs more bytes. */
  const step = (final: boolean): boolean => {
    if (state === "preamble") {
      const at = indexOf(pending, opening);
      if (at === -1) return false;
      pending = pending.subarray(at + opening.length);
      state = "after";
      return true;
    }
    if (state === "after") {
      if (pending.length < 2) return false;
      if (pending[0] === 0x2d && pending[1] === 0x2d) {
        state = "done";
        return false;
      }
      const lineEnd = indexOf(pending, encoder.encode("\r\n"));
      if (lineEnd === -1) return false;
      pending = pending.subarray(lineEnd + 2);
      state = "headers";
      return true;
    }
    if (state === "headers") {
      const end = indexOf(pending, CRLFCRLF);
      if (end === -1) {
        if (pending.length > MAX_HEADER_BYTES) {
          throw new InvalidRequestError("body: a multipart part's headers are too long");
        }
        return false;
      }
      const { name, filename } = dispositionOf(new TextDecoder().decode(pending.subarray(0, end)));
      const files = parts.filter((part) => part.kind === "file").length;
      if (filename !== undefined && files >= limits.maxFiles) {
        throw new InvalidRequestError(`file: at most ${limits.maxFiles} files per request`);
      }
      if (filename === undefined && parts.length - files >= MAX_FIELDS) {
        throw new InvalidRequestError(`body: at most ${MAX_FIELDS} form fields`);
      }
      current = { name, ...(filename === undefined ? {} : { filename }), chunks: [], size: 0 };
      pending = pending.subarray(end + CRLFCRLF.length);
      state = "body";
      return true;
    }
    if (state === "body") {
      const at = indexOf(pending, delimiter);
      if (at === -1) {
        // Keep what could be the start of the delimiter; the rest is content.
        const safe = final ? pending.length : Math.max(0, pending.length - delimiter.length + 1);
        addContent(pending.subarray(0, safe));
        pending = pending.subarray(safe);
        return false;
      }
      addContent(pending.subarray(0, at));
      finishPart();
      pending = pending.subarray(at + delimiter.length);
      state = "after";
      return true;
    }
    return false;
  };

  try {
    while (state !== "done") {
      const { done, value } = await reader.read();
      if (value) {
        total += value.byteLength;
        if (total > limits.maxTotalBytes) throw tooLarge();
        pending = pending.length ? concat([pending, value]) : value;
      }
      while (step(Boolean(done)));
      if (done) break;
    }
  } catch (error) {
    await reader.cancel().catch(() => {});
    throw error;
  }
  if (state !== "done") {
    await reader.cancel().catch(() => {});
    throw new InvalidRequestError("body: the multipart body ended before its closing boundary");
  }
  await reader.cancel().catch(() => {});
  return parts;
}

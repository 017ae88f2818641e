import { DocumentRefusedError } from "../../../shared/documents/refusal.ts";
import { detectFileKind, type FileKind } from "./detect.ts";
import type { FileLimits } from "./limits.ts";
import { type ParsedFile, parseKind } from "./parse-kind.ts";

export type { FileKind } from "./detect.ts";
export type { FileLimits } from "./limits.ts";
export type { ParsedFile } from "./parse-kind.ts";

/**
 * The kinds whose parse can take seconds or expand a small file into a large
 * one (a PDF's streams, a DOCX's zip, deeply nested HTML): on Deno they run in
 * a worker thread, so the request loop keeps answering.
 */
const OFF_LOOP_KINDS: ReadonlySet<FileKind> = new Set(["pdf", "docx", "html"]);

/**
 * True on Deno, which has Web Workers and threads for them. workerd (and any
 * runtime without `Deno`) parses on the request loop, as there is no thread
 * to move the work to; Deno's globals are only looked at here, per call.
 */
function hasParseWorkers(): boolean {
  return "Deno" in globalThis && typeof globalThis.Worker === "function" &&
    globalThis.navigator?.userAgent !== "Cloudflare-Workers";
}

/**
 * Reads one uploaded file into blocks: the kind comes from its bytes (see
 * `detectFileKind`), and each kind's parser is imported only when a file of
 * that kind arrives, so a Worker that parses no PDF never loads pdf.js. On
 * Deno a PDF, DOCX or HTML file is parsed in a worker thread within
 * `FILE_PARSE_TIMEOUT_MS`. What is not a document (an image, a scan, an
 * encrypted, damaged or oversized file) is a `DocumentRefusedError` naming
 * the file and the reason.
 *
 * @example
 * const parsed = await parseFile(bytes, "paper.pdf", config.files);
 * parsed.blocks[0]?.page; // 1
 */
export async function parseFile(
  bytes: Uint8Array,
  name: string,
  limits: FileLimits,
): Promise<ParsedFile> {
  if (bytes.byteLength > limits.maxBytes) {
    throw new DocumentRefusedError(
      name,
      "too_large",
      `is over the limit of ${limits.maxBytes} bytes (FILE_MAX_BYTES)`,
    );
  }
  const kind = detectFileKind(bytes, name);
  let parsed: ParsedFile;
  if (OFF_LOOP_KINDS.has(kind) && hasParseWorkers()) {
    // A Deno-only module, loaded only here: no Worker URL in what workerd runs.
    const { parseInWorker } = await import("./parse-pool.ts");
    parsed = await parseInWorker(kind, bytes, name, limits);
  } else parsed = await parseKind(kind, bytes, name, limits);
  if (!parsed.blocks.some((block) => block.text.trim())) {
    throw new DocumentRefusedError(name, "empty", "holds no text");
  }
  return parsed;
}

import { DocumentRefusedError } from "../../../shared/documents/refusal.ts";
import { detectFileKind, type FileKind } from "./detect.ts";
import type { FileLimits } from "./limits.ts";
import { storableText } from "../../../shared/text/storable.ts";
import { type ParsedFile, parseKind } from "./parse-kind.ts";

export type { FileKind } from "./detect.ts";
export type { FileLimits } from "./limits.ts";
export type { ParsedFile } from "./parse-kind.ts";

/**
 * The kinds whose parse can take seconds, expand a small file into a large
 * one or exhaust a parser (a PDF's streams and fonts, a DOCX's zip, deeply
 * nested HTML, a gzip file): on Deno they run in a child process.
 */
const CONTAINED_KINDS: ReadonlySet<FileKind> = new Set(["pdf", "docx", "html", "gzip"]);

/**
 * True on Deno, which can start processes (and threads). workerd (and any
 * runtime without `Deno`) parses on the request loop within the parsers' own
 * limits; Deno's globals are only looked at here, per call.
 */
function onDeno(): boolean {
  return "Deno" in globalThis && globalThis.navigator?.userAgent !== "Cloudflare-Workers";
}

/** Set once this Deno could not start a parse child: parse in a worker thread from then on. */
let childrenUnavailable = false;

/**
 * Reads one uploaded file into blocks: the kind comes from its bytes (see
 * `detectFileKind`), and each kind's parser is imported only when a file of
 * that kind arrives, so a Worker that parses no PDF never loads pdf.js. On
 * Deno a PDF, DOCX, HTML or gzip file is parsed in a child process within
 * `FILE_PARSE_TIMEOUT_MS` and `FILE_PARSE_MEMORY_MB` (in a worker thread,
 * bounded in time only, where this Deno may not start processes), and
 * `signal` (the caller's request) ends the parse when the caller goes away.
 * What is not a document (an image, a scan, an encrypted, damaged or
 * oversized file) is a `DocumentRefusedError` naming the file and the reason.
 *
 * @example
 * const parsed = await parseFile(bytes, "paper.pdf", config.files);
 * parsed.blocks[0]?.page; // 1
 */
export async function parseFile(
  bytes: Uint8Array,
  name: string,
  limits: FileLimits,
  signal?: AbortSignal,
): Promise<ParsedFile> {
  if (bytes.byteLength > limits.maxBytes) {
    throw new DocumentRefusedError(
      name,
      "too_large",
      `is over the limit of ${limits.maxBytes} bytes (FILE_MAX_BYTES)`,
    );
  }
  const kind = detectFileKind(bytes, name);
  const parsed = storableParse(
    CONTAINED_KINDS.has(kind) && onDeno()
      ? await parseContained(kind, bytes, name, limits, signal)
      : await parseKind(kind, bytes, name, limits),
  );
  if (!parsed.blocks.some((block) => block.text.trim())) {
    throw new DocumentRefusedError(name, "empty", "holds no text");
  }
  return parsed;
}

/**
 * The parse with NULs dropped and lone surrogates as U+FFFD (`storableText`):
 * a PDF whose fonts map glyphs to U+0000 is still read, where a request's own
 * text holding one is refused (no index keeps it).
 */
function storableParse(parsed: ParsedFile): ParsedFile {
  return {
    ...parsed,
    ...(parsed.title === undefined ? {} : { title: storableText(parsed.title) }),
    blocks: parsed.blocks.map((block) => ({
      ...block,
      text: storableText(block.text),
      section: block.section.map(storableText),
    })),
  };
}

/** A file parsed in a child process, or in a worker thread where no child can start. */
async function parseContained(
  kind: FileKind,
  bytes: Uint8Array,
  name: string,
  limits: FileLimits,
  signal: AbortSignal | undefined,
): Promise<ParsedFile> {
  // Deno-only modules, loaded only here: no process or Worker code in what workerd runs.
  if (!childrenUnavailable) {
    const { parseInChild, ParseChildUnavailable } = await import("./parse-processes.ts");
    try {
      return await parseInChild(kind, bytes, name, limits, signal);
    } catch (error) {
      if (!(error instanceof ParseChildUnavailable)) throw error;
      childrenUnavailable = true;
      console.warn(
        `sift: files are parsed in a worker thread, bounded in time but not in memory: ${error.message}`,
      );
    }
  }
  const { parseInWorker } = await import("./parse-pool.ts");
  return await parseInWorker(kind, bytes, name, limits);
}

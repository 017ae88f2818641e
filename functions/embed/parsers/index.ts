import type { ParsedDocument } from "../../../shared/documents/blocks.ts";
import { DocumentRefusedError } from "../../../shared/documents/refusal.ts";
import { decodeText, detectFileKind, type FileKind } from "./detect.ts";
import type { FileLimits } from "./limits.ts";

export type { FileKind } from "./detect.ts";
export type { FileLimits } from "./limits.ts";

/** A parsed file with the kind it was read as. */
export type ParsedFile = ParsedDocument & { kind: Exclude<FileKind, "jsonl"> };

/**
 * Reads one uploaded file into blocks: the kind comes from its bytes (see
 * `detectFileKind`), and each kind's parser is imported only when a file of
 * that kind arrives, so a Worker that parses no PDF never loads pdf.js.
 * What is not a document (an image, a scan, an encrypted or oversized file)
 * is a `DocumentRefusedError` naming the file and the reason.
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
  const parsed = await parseKind(kind, bytes, name, limits);
  if (!parsed.blocks.some((block) => block.text.trim())) {
    throw new DocumentRefusedError(name, "empty", "holds no text");
  }
  return parsed;
}

async function parseKind(
  kind: FileKind,
  bytes: Uint8Array,
  name: string,
  limits: FileLimits,
): Promise<ParsedFile> {
  switch (kind) {
    case "pdf": {
      const { parsePdf } = await import("./pdf.ts");
      return { kind, ...await parsePdf(bytes, name, limits) };
    }
    case "docx": {
      const { parseDocx } = await import("./docx.ts");
      return { kind, ...await parseDocx(bytes, name, limits) };
    }
    case "html": {
      const { parseHtml } = await import("./html.ts");
      return { kind, ...await parseHtml(decodeText(bytes)!) };
    }
    case "markdown": {
      const { parseMarkdown } = await import("./markdown.ts");
      return { kind, ...parseMarkdown(decodeText(bytes)!) };
    }
    case "text": {
      const { parsePlainText } = await import("./text.ts");
      return { kind, ...parsePlainText(decodeText(bytes)!) };
    }
    case "jsonl":
      throw new DocumentRefusedError(
        name,
        "not_text",
        "is JSON Lines: send its lines as documents in a JSON body (the CLI and the console do)",
      );
  }
}

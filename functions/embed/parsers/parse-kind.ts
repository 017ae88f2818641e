import type { ParsedDocument } from "../../../shared/documents/blocks.ts";
import { DocumentRefusedError } from "../../../shared/documents/refusal.ts";
import { SiftError } from "../../../shared/errors.ts";
import { decodeText, type FileKind } from "./detect.ts";
import type { FileLimits } from "./limits.ts";
import { reasonOf } from "./reason.ts";

/** A parsed file with the kind it was read as. */
export type ParsedFile = ParsedDocument & { kind: Exclude<FileKind, "jsonl" | "gzip"> };

const LABELS: Record<FileKind, string> = {
  pdf: "PDF",
  docx: "Word document",
  html: "HTML page",
  markdown: "Markdown file",
  text: "text file",
  jsonl: "JSON Lines file",
  gzip: "gzip file",
};

/**
 * One file read by its kind's parser, here on this thread (the request loop
 * on workerd, a parse worker on Deno). Each parser is imported only when a
 * file of its kind arrives, so a Worker that parses no PDF never loads pdf.js.
 * Whatever a parser throws is a refusal naming the file: a library's error on
 * a strange file (htmlparser2, fflate, pdf.js) is the file's fault, never a 500.
 */
export async function parseKind(
  kind: FileKind,
  bytes: Uint8Array,
  name: string,
  limits: FileLimits,
): Promise<ParsedFile> {
  try {
    return await parseByKind(kind, bytes, name, limits);
  } catch (error) {
    if (error instanceof SiftError) throw error;
    throw new DocumentRefusedError(
      name,
      "unreadable",
      `is a ${LABELS[kind]} sift could not read (${reasonOf(error)})`,
      { cause: error },
    );
  }
}

async function parseByKind(
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
    case "gzip": {
      // Read as the file inside, named as sent: its refusals name `notes.md.gz`.
      const { gunzipFile } = await import("./gzip.ts");
      const inner = await gunzipFile(bytes, name, limits);
      return await parseKind(inner.kind, inner.bytes, name, limits);
    }
    case "jsonl":
      throw new DocumentRefusedError(
        name,
        "not_text",
        "is JSON Lines: send its lines as documents in a JSON body (the CLI and the console do)",
      );
  }
}

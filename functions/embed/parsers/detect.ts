import { DocumentRefusedError } from "../../../shared/documents/refusal.ts";

/** The kinds of file sift reads; a gzip is read as the file inside it. */
export type FileKind = "pdf" | "docx" | "html" | "markdown" | "text" | "jsonl" | "gzip";

const startsWith = (bytes: Uint8Array, signature: readonly number[], offset = 0) =>
  signature.every((byte, position) => bytes[offset + position] === byte);

const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0));

/** Formats that are never text, by their first bytes: named in the refusal. */
const BINARY_SIGNATURES: readonly { name: string; test: (bytes: Uint8Array) => boolean }[] = [
  { name: "a PNG image", test: (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a]) },
  { name: "a JPEG image", test: (b) => startsWith(b, [0xff, 0xd8, 0xff]) },
  { name: "a GIF image", test: (b) => startsWith(b, ascii("GIF8")) },
  {
    name: "a WebP image",
    test: (b) => startsWith(b, ascii("RIFF")) && startsWith(b, ascii("WEBP"), 8),
  },
  // "BM" alone starts text too ("BM25 ranks…"): a BMP's reserved bytes are zero and its DIB
  // header has one of the sizes the format defines.
  { name: "a BMP image", test: (b) => startsWith(b, ascii("BM")) && isBmpHeader(b) },
  {
    name: "a TIFF image",
    test: (b) => startsWith(b, [0x49, 0x49, 0x2a, 0]) || startsWith(b, [0x4d, 0x4d, 0, 0x2a]),
  },
  { name: "an AVIF or HEIC image", test: (b) => startsWith(b, ascii("ftyp"), 4) },
  { name: "an executable", test: (b) => startsWith(b, [0x7f, 0x45, 0x4c, 0x46]) },
];

const ZIP = [0x50, 0x4b, 0x03, 0x04];
const GZIP = [0x1f, 0x8b];

/** Where `needle` first occurs in `bytes`, or -1. */
function indexOfBytes(bytes: Uint8Array, needle: readonly number[], from = 0): number {
  const first = needle[0]!;
  for (let at = bytes.indexOf(first, from); at !== -1; at = bytes.indexOf(first, at + 1)) {
    if (startsWith(bytes, needle, at)) return at;
  }
  return -1;
}

/** The file's text when it is UTF-8 with no NUL, else undefined. */
export function decodeText(bytes: Uint8Array): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** An HTML page by its first markup, whatever its name. */
function looksLikeHtml(text: string, name: string): boolean {
  const head = text.slice(0, 2048).trimStart().toLowerCase();
  if (/^(<!--[\s\S]*?-->\s*)*<!doctype html[\s>]/.test(head)) return true;
  if (/^(<!--[\s\S]*?-->\s*)*<html[\s>]/.test(head)) return true;
  return /\.x?html?$/i.test(name) && head.startsWith("<");
}

/**
 * The kind of file from its bytes: magic numbers first (a PNG named `.txt` is
 * still a PNG), the name only to tell Markdown and `.jsonl` from plain text.
 * A gzip is `gzip` whatever it holds (its compressed bytes may even show a
 * `%PDF-`): `parseKind` unpacks it and asks again of the file inside.
 * Anything else is refused with the reason.
 *
 * @example
 * detectFileKind(new TextEncoder().encode("%PDF-1.7 ..."), "paper.pdf"); // "pdf"
 */
export function detectFileKind(bytes: Uint8Array, name: string): FileKind {
  if (bytes.length === 0) throw new DocumentRefusedError(name, "empty", "is empty");
  if (startsWith(bytes, GZIP)) return "gzip";
  // The PDF header may sit anywhere in the first 1024 bytes.
  const pdfAt = indexOfBytes(bytes.subarray(0, 1024), ascii("%PDF-"));
  if (pdfAt !== -1) return "pdf";
  if (startsWith(bytes, ZIP)) {
    if (indexOfBytes(bytes, ascii("word/document.xml")) !== -1) return "docx";
    throw new DocumentRefusedError(
      name,
      "not_text",
      "is a zip archive that is not a Word document (.docx); archives are not ingested",
    );
  }
  const binary = BINARY_SIGNATURES.find((signature) => signature.test(bytes));
  if (binary) {
    throw new DocumentRefusedError(name, "not_text", `is ${binary.name}, not text`);
  }
  const text = decodeText(bytes);
  if (text === undefined) {
    throw new DocumentRefusedError(name, "not_text", "is binary data, not UTF-8 text");
  }
  if (!text.trim()) throw new DocumentRefusedError(name, "empty", "holds no text");
  if (looksLikeHtml(text, name)) return "html";
  if (/\.(jsonl|ndjson)$/i.test(name)) return "jsonl";
  if (/\.(md|markdown|mdx)$/i.test(name)) return "markdown";
  return "text";
}

/** The DIB header sizes a BMP may have (BITMAPCOREHEADER … BITMAPV5HEADER). */
const DIB_HEADER_SIZES = new Set([12, 16, 40, 52, 56, 64, 108, 124]);

function isBmpHeader(b: Uint8Array): boolean {
  if (b.length < 26 || b[6] !== 0 || b[7] !== 0 || b[8] !== 0 || b[9] !== 0) return false;
  const dib = b[14]! | (b[15]! << 8) | (b[16]! << 16) | (b[17]! << 24);
  return DIB_HEADER_SIZES.has(dib);
}

import { DocumentRefusedError } from "../../../shared/documents/refusal.ts";
import { reasonOf } from "./parse-kind.ts";

const ascii = (text: string) => new TextEncoder().encode(text);
const END_OF_FILE = ascii("%%EOF");
const OBJECT = ascii(" obj");

/** True when `needle` occurs in `bytes` from `from` on. */
function holds(bytes: Uint8Array, needle: Uint8Array, from = 0): boolean {
  for (
    let at = bytes.indexOf(needle[0]!, from);
    at !== -1;
    at = bytes.indexOf(needle[0]!, at + 1)
  ) {
    if (needle.every((byte, offset) => bytes[at + offset] === byte)) return true;
  }
  return false;
}

/**
 * What pdf.js's error says about the file, as a refusal: a PDF that holds
 * objects but no `%%EOF` near its end was cut off (a download stopped short)
 * and is named truncated; other PDFs are damaged, with pdf.js's reason
 * ("Pages tree contains circular reference"); bytes with no PDF objects at
 * all are not a readable PDF.
 */
export function pdfDamage(name: string, bytes: Uint8Array, error: unknown): DocumentRefusedError {
  const reason = reasonOf(error);
  // Writers end a PDF with %%EOF, sometimes followed by a few bytes of padding.
  const ended = holds(bytes, END_OF_FILE, Math.max(0, bytes.byteLength - 1024));
  if (!ended && holds(bytes, OBJECT)) {
    return new DocumentRefusedError(
      name,
      "unreadable",
      "is truncated: the PDF stops before its end (no %%EOF); send the whole file again",
      { cause: error },
    );
  }
  if (!holds(bytes, OBJECT)) {
    return new DocumentRefusedError(name, "unreadable", `is not a readable PDF (${reason})`, {
      cause: error,
    });
  }
  return new DocumentRefusedError(name, "unreadable", `is damaged: ${reason}`, { cause: error });
}

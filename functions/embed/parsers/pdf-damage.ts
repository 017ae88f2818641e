import { DocumentRefusedError } from "../../../shared/documents/refusal.ts";
import { reasonOf } from "./reason.ts";

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

/** How far from the end a whole PDF's `%%EOF` may sit (writers pad; some append a little). */
const TAIL_BYTES = 2048;

/**
 * The refusal of a PDF cut off before its end (a download stopped short): it
 * holds objects but no `%%EOF` near its end. Checked before pdf.js reads it,
 * since pdf.js rebuilds what it can of a cut file and would hand back part of
 * the document as if it were all of it.
 */
export function pdfTruncation(name: string, bytes: Uint8Array): DocumentRefusedError | undefined {
  if (holds(bytes, END_OF_FILE, Math.max(0, bytes.byteLength - TAIL_BYTES))) return undefined;
  if (!holds(bytes, OBJECT)) return undefined;
  return new DocumentRefusedError(
    name,
    "unreadable",
    "is truncated: the PDF stops before its end (no %%EOF); send the whole file again",
  );
}

/**
 * What pdf.js's error says about the file, as a refusal: truncated (see
 * `pdfTruncation`), damaged with pdf.js's reason ("Pages tree contains
 * circular reference"), or, for bytes with no PDF objects at all, not a
 * readable PDF.
 */
export function pdfDamage(name: string, bytes: Uint8Array, error: unknown): DocumentRefusedError {
  const reason = reasonOf(error);
  const truncated = pdfTruncation(name, bytes);
  if (truncated) return truncated;
  if (!holds(bytes, OBJECT)) {
    return new DocumentRefusedError(name, "unreadable", `is not a readable PDF (${reason})`, {
      cause: error,
    });
  }
  return new DocumentRefusedError(name, "unreadable", `is damaged: ${reason}`, { cause: error });
}

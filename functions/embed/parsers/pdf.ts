import type { ParsedDocument } from "../../../shared/documents/blocks.ts";
import { DocumentRefusedError } from "../../../shared/documents/refusal.ts";
import type { FileLimits } from "./limits.ts";
import { blocksOf } from "./pdf-blocks.ts";
import { pdfDamage, pdfTruncation } from "./pdf-damage.ts";
import { pdfExpansion } from "./pdf-expansion.ts";
import {
  linesOf,
  readingOrder,
  rotatedSegments,
  type Segment,
  segmentsOf,
  type TextRun,
} from "./pdf-layout.ts";

export { joinLines } from "./pdf-blocks.ts";

type PdfTextItem = { str?: string; transform?: number[]; width?: number; height?: number };

/** Characters a page must average for the PDF to count as having a text layer. */
const SCANNED_CHARS_PER_PAGE = 20;

/** A baseline more than this far from horizontal (degrees) is rotated text. */
const ROTATED_DEGREES = 3;

/** Pixels of the largest image pdf.js decodes (it draws none to read text): 4096 × 4096. */
const MAX_IMAGE_PIXELS = 4096 * 4096;

/**
 * pdf.js's options that bound its work or memory, for text only: no image
 * or canvas past `MAX_IMAGE_PIXELS`, no OffscreenCanvas, image decoder,
 * WebAssembly decoder, font face, system font lookup or XFA form. pdf.js has
 * no bound on what a stream inflates to (see `pdfExpansion`) nor on a
 * ToUnicode CMap's ranges (2^24 - 1 codes each, any number of them).
 */
const PDFJS_OPTIONS = {
  verbosity: 0,
  maxImageSize: MAX_IMAGE_PIXELS,
  canvasMaxAreaInBytes: 4 * MAX_IMAGE_PIXELS,
  isOffscreenCanvasSupported: false,
  isImageDecoderSupported: false,
  useWasm: false,
  disableFontFace: true,
  useSystemFonts: false,
  fontExtraProperties: false,
  enableXfa: false,
} as const;

/**
 * A PDF's text, page by page in reading order, with headings told by their
 * size. pdf.js (through unpdf's serverless build) is loaded here, on the first
 * PDF, so nothing else pays for it. Its streams are inflated and counted
 * first, within `ARCHIVE_MAX_EXPANDED_BYTES` (see `pdfExpansion`). Whatever
 * pdf.js throws on the way (a page tree that loops, a stream cut short) is a
 * refusal naming the file as truncated or damaged.
 */
export async function parsePdf(
  bytes: Uint8Array,
  name: string,
  limits: FileLimits,
): Promise<ParsedDocument> {
  const truncated = pdfTruncation(name, bytes);
  if (truncated) throw truncated;
  const expanded = await pdfExpansion(name, bytes, limits.maxExpandedBytes);
  if (expanded) throw expanded;
  const { getDocumentProxy } = await import("unpdf");
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // pdf.js takes the buffer over: hand it a copy so the caller's bytes stay readable.
    pdf = await getDocumentProxy(bytes.slice(), PDFJS_OPTIONS);
  } catch (error) {
    if ((error as Error)?.name === "PasswordException") {
      throw new DocumentRefusedError(
        name,
        "encrypted",
        "is an encrypted PDF (it needs a password); remove the password and send it again",
      );
    }
    throw pdfDamage(name, bytes, error);
  }
  try {
    if (pdf.numPages > limits.maxPdfPages) {
      throw new DocumentRefusedError(
        name,
        "too_large",
        `has ${pdf.numPages} pages, over the limit of ${limits.maxPdfPages} (PDF_MAX_PAGES)`,
      );
    }
    const pages = await readPages(pdf, name, bytes);
    const chars = pages.flat().reduce((sum, line) => sum + line.text.replace(/\s/g, "").length, 0);
    if (chars < SCANNED_CHARS_PER_PAGE * pdf.numPages) {
      throw new DocumentRefusedError(
        name,
        "scanned",
        "looks scanned: its pages hold images and no text layer; OCR is not done",
      );
    }
    const metadata = await pdf.getMetadata().catch(() => undefined);
    const info = metadata?.info as { Title?: unknown } | undefined;
    const metaTitle = typeof info?.Title === "string" ? info.Title.trim() : "";
    return blocksOf(pages, metaTitle || undefined);
  } finally {
    await pdf.cleanup().catch(() => {});
  }
}

type PdfDocument = Awaited<ReturnType<typeof import("unpdf").getDocumentProxy>>;

/** Every page's lines in reading order, rotated text after the rest. */
async function readPages(pdf: PdfDocument, name: string, bytes: Uint8Array) {
  const pages: Segment[][] = [];
  for (let number = 1; number <= pdf.numPages; number++) {
    try {
      const page = await pdf.getPage(number);
      const content = await page.getTextContent();
      const width = page.getViewport({ scale: 1 }).width;
      const runs = (content.items as PdfTextItem[]).map(runOf);
      const upright = runs.filter((run) => !run.rotated);
      pages.push([
        ...linesOf(readingOrder(segmentsOf(upright), width)),
        ...rotatedSegments(runs),
      ]);
      page.cleanup();
    } catch (error) {
      throw pdfDamage(name, bytes, error);
    }
  }
  return pages;
}

function runOf(item: PdfTextItem): TextRun {
  const [a = 0, b = 0, c = 0, d = 0, x = 0, y = 0] = item.transform ?? [];
  const size = Math.hypot(c, d) || Math.hypot(a, b) || item.height || 10;
  const degrees = Math.abs((Math.atan2(b, a) * 180) / Math.PI);
  const run = { text: (item.str ?? "").normalize("NFKC"), x, y, width: item.width ?? 0, size };
  return degrees > ROTATED_DEGREES ? { ...run, rotated: true } : run;
}

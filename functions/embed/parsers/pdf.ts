import type { Block, ParsedDocument } from "../../../shared/documents/blocks.ts";
import { DocumentRefusedError } from "../../../shared/documents/refusal.ts";
import type { FileLimits } from "./limits.ts";
import { linesOf, readingOrder, type Segment, segmentsOf, type TextRun } from "./pdf-layout.ts";

type PdfTextItem = { str?: string; transform?: number[]; width?: number; height?: number };

/** Characters a page must average for the PDF to count as having a text layer. */
const SCANNED_CHARS_PER_PAGE = 20;

/**
 * A PDF's text, page by page in reading order, with headings told by their
 * size. pdf.js (through unpdf's serverless build) is loaded here, on the first
 * PDF, so nothing else pays for it.
 */
export async function parsePdf(
  bytes: Uint8Array,
  name: string,
  limits: FileLimits,
): Promise<ParsedDocument> {
  const { getDocumentProxy } = await import("unpdf");
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // pdf.js takes the buffer over: hand it a copy so the caller's bytes stay readable.
    pdf = await getDocumentProxy(bytes.slice(), { verbosity: 0 });
  } catch (error) {
    if ((error as Error)?.name === "PasswordException") {
      throw new DocumentRefusedError(
        name,
        "encrypted",
        "is an encrypted PDF (it needs a password); remove the password and send it again",
      );
    }
    throw new DocumentRefusedError(name, "unreadable", "is not a readable PDF", { cause: error });
  }
  try {
    if (pdf.numPages > limits.maxPdfPages) {
      throw new DocumentRefusedError(
        name,
        "too_large",
        `has ${pdf.numPages} pages, over the limit of ${limits.maxPdfPages} (PDF_MAX_PAGES)`,
      );
    }
    const pages: Segment[][] = [];
    for (let number = 1; number <= pdf.numPages; number++) {
      const page = await pdf.getPage(number);
      const content = await page.getTextContent();
      const width = page.getViewport({ scale: 1 }).width;
      const runs = (content.items as PdfTextItem[]).map(runOf);
      pages.push(linesOf(readingOrder(segmentsOf(runs), width)));
      page.cleanup();
    }
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

function runOf(item: PdfTextItem): TextRun {
  const [a = 0, b = 0, c = 0, d = 0, x = 0, y = 0] = item.transform ?? [];
  const size = Math.hypot(c, d) || Math.hypot(a, b) || item.height || 10;
  return { text: (item.str ?? "").normalize("NFKC"), x, y, width: item.width ?? 0, size };
}

/** The font size most of the text is set in: the body's. */
function bodySize(lines: readonly Segment[]): number {
  const weight = new Map<number, number>();
  for (const line of lines) {
    const size = Math.round(line.size * 2) / 2;
    weight.set(size, (weight.get(size) ?? 0) + line.text.length);
  }
  return [...weight.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 10;
}

/** Consecutive heading lines of one size (a title set on two lines) as one line. */
function mergeHeadingLines(lines: readonly Segment[], body: number): Segment[] {
  const merged: Segment[] = [];
  for (const line of lines) {
    const last = merged.at(-1);
    if (
      last && isHeading(last, body) && isHeading(line, body) &&
      Math.round(last.size) === Math.round(line.size) && last.y - line.y < 2 * line.size
    ) {
      last.text += " " + line.text;
      last.y = line.y;
    } else merged.push({ ...line });
  }
  return merged;
}

/**
 * Lines become blocks: a line set larger than the body and short is a
 * heading, the others gather into paragraphs that break at a wider gap. The
 * first heading of page 1 is the title (unless the metadata has one); the
 * larger lines between it and the body (authors, a date) are front matter,
 * not sections.
 */
function blocksOf(raw: readonly Segment[][], metaTitle: string | undefined): ParsedDocument {
  const body = bodySize(raw.flat());
  const pages = raw.map((lines) => mergeHeadingLines(lines, body));
  const first = pages[0]?.[0];
  const titleLine = first && isHeading(first, body) ? first : undefined;
  const frontMatter = new Set<Segment>();
  for (const line of pages[0] ?? []) {
    if (!isHeading(line, body)) break;
    if (line !== titleLine) frontMatter.add(line);
  }
  const isSection = (line: Segment) =>
    isHeading(line, body) && line !== titleLine && !frontMatter.has(line);
  const headingSizes = [
    ...new Set(pages.flat().filter(isSection).map((line) => Math.round(line.size))),
  ].sort((a, b) => b - a);
  const blocks: Block[] = [];
  const path: string[] = [];
  pages.forEach((lines, index) => {
    const page = index + 1;
    let paragraph: Segment[] = [];
    const flush = () => {
      if (paragraph.length) {
        blocks.push({
          kind: "paragraph",
          text: joinLines(paragraph.map((line) => line.text)),
          page,
          section: [...path],
        });
      }
      paragraph = [];
    };
    for (const line of lines) {
      if (line === titleLine) {
        blocks.push({ kind: "heading", text: line.text, page, section: [], level: 1 });
        continue;
      }
      if (isSection(line)) {
        flush();
        const level = headingSizes.indexOf(Math.round(line.size)) + 1;
        path.splice(level - 1, path.length, line.text);
        blocks.push({
          kind: "heading",
          text: line.text,
          page,
          section: [...path],
          level: level + 1,
        });
        continue;
      }
      const previous = paragraph.at(-1);
      if (
        previous && (previous.y - line.y > 1.8 * line.size || line.y > previous.y ||
          frontMatter.has(previous) !== frontMatter.has(line))
      ) flush();
      paragraph.push(line);
    }
    flush();
  });
  const title = metaTitle ?? titleLine?.text;
  return title ? { title, blocks } : { blocks };
}

/**
 * A paragraph's lines, a word hyphenated across a line break joined again
 * (`re-` + `minded` → `reminded`), as pdftotext does, so the word is found.
 */
export function joinLines(lines: readonly string[]): string {
  let text = "";
  for (const line of lines) {
    if (/\p{Ll}-$/u.test(text) && /^\p{Ll}/u.test(line)) text = text.slice(0, -1) + line;
    else text += (text ? "\n" : "") + line;
  }
  return text;
}

function isHeading(line: Segment, body: number): boolean {
  return line.size >= body * 1.15 && line.text.length <= 120 && /\p{L}/u.test(line.text);
}

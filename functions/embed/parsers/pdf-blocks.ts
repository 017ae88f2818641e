/**
 * A PDF's lines (in reading order, per page) as blocks: headings told by
 * their size, the title, paragraphs. Pure, so it is tested on made-up lines.
 */
import type { Block, ParsedDocument } from "../../../shared/documents/blocks.ts";
import type { Segment } from "./pdf-layout.ts";

/** The font size most of the text is set in: the body's. */
function bodySize(lines: readonly Segment[]): number {
  const weight = new Map<number, number>();
  for (const line of lines) {
    if (line.rotated) continue;
    const size = Math.round(line.size * 2) / 2;
    weight.set(size, (weight.get(size) ?? 0) + line.text.length);
  }
  return [...weight.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 10;
}

/** A line's text as compared across pages: a running head's page number left out. */
const repeatKey = (line: Segment) =>
  line.text.toLowerCase().replace(/\d+/g, "#").replace(/\s+/g, " ").trim();

/**
 * Texts on every page of a document of two pages or more: a running head, a
 * "CONFIDENTIAL" or "Draft" stamp. However large, they are not headings.
 */
function repeatedOnEveryPage(pages: readonly Segment[][]): Set<string> {
  if (pages.length < 2) return new Set();
  const [first, ...rest] = pages.map((lines) => new Set(lines.map(repeatKey)));
  return new Set([...first!].filter((key) => rest.every((page) => page.has(key))));
}

/**
 * Lines become blocks: an upright line set larger than the body, short, and
 * not repeated on every page is a heading; the others gather into
 * paragraphs that break at a wider gap. Rotated text (a diagonal watermark,
 * an arXiv id up the margin) is never a heading. The title is the metadata's
 * when it has one, else page 1's largest heading; the larger lines on page 1
 * around it (authors, a date, a venue) are front matter, not sections.
 */
export function blocksOf(raw: readonly Segment[][], metaTitle: string | undefined): ParsedDocument {
  const body = bodySize(raw.flat());
  const repeated = repeatedOnEveryPage(raw);
  const heading = (line: Segment) => isHeading(line, body) && !repeated.has(repeatKey(line));
  const pages = raw.map((lines) => mergeHeadingLines(lines, heading));
  const { titleLine, frontMatter } = titleOf(pages[0] ?? [], heading);
  const isSection = (line: Segment) =>
    heading(line) && line !== titleLine && !frontMatter.has(line);
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
        flush();
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
          frontMatter.has(previous) !== frontMatter.has(line) ||
          Boolean(previous.rotated) !== Boolean(line.rotated))
      ) flush();
      paragraph.push(line);
    }
    flush();
  });
  const title = metaTitle ?? titleLine?.text;
  return title ? { title, blocks } : { blocks };
}

/**
 * Page 1's title line (its largest heading, the first of them when several
 * share the size) and its front matter: the headings before it (a venue, a
 * "Preprint" banner) and the run of headings right after it (authors, date).
 */
function titleOf(
  lines: readonly Segment[],
  heading: (line: Segment) => boolean,
): { titleLine: Segment | undefined; frontMatter: Set<Segment> } {
  const frontMatter = new Set<Segment>();
  let titleLine: Segment | undefined;
  for (const line of lines) {
    if (heading(line) && (!titleLine || sizeOf(line) > sizeOf(titleLine))) titleLine = line;
  }
  if (!titleLine) return { titleLine, frontMatter };
  const at = lines.indexOf(titleLine);
  for (const line of lines.slice(0, at)) if (heading(line)) frontMatter.add(line);
  for (const line of lines.slice(at + 1)) {
    if (!heading(line)) break;
    frontMatter.add(line);
  }
  return { titleLine, frontMatter };
}

const sizeOf = (line: Segment) => Math.round(line.size * 2) / 2;

/** Consecutive heading lines of one size (a title set on two lines) as one line. */
function mergeHeadingLines(
  lines: readonly Segment[],
  heading: (line: Segment) => boolean,
): Segment[] {
  const merged: Segment[] = [];
  for (const line of lines) {
    const last = merged.at(-1);
    if (
      last && heading(last) && heading(line) &&
      Math.round(last.size) === Math.round(line.size) && last.y - line.y < 2 * line.size &&
      last.y > line.y
    ) {
      last.text += " " + line.text;
      last.y = line.y;
    } else merged.push({ ...line });
  }
  return merged;
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
  return !line.rotated && line.size >= body * 1.15 && line.text.length <= 120 &&
    /\p{L}/u.test(line.text);
}

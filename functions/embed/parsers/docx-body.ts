import type { Block, ParsedDocument } from "../../../shared/documents/blocks.ts";
import { fastenOpenElements } from "./html-stack.ts";
import { yieldingEvery } from "./yielding.ts";

/** XML handed to the parser at a time, with a turn for the event loop between (workerd). */
const SLICE_CHARS = 64 * 1024;

/** One open `<w:p>`: its own text so far, its style id, and whether it is a list item. */
type Paragraph = { text: string; style: string | undefined; listItem: boolean };

/** `heading 2` → 2, `title` → 1 (as the title), anything else: not a heading. */
function headingLevel(style: string | undefined): number | "title" | undefined {
  if (!style) return undefined;
  if (style === "title") return "title";
  const level = /^heading\s*([1-9])$/.exec(style)?.[1];
  return level ? Number(level) : undefined;
}

/**
 * The blocks of a `word/document.xml`, in one pass whatever its nesting:
 * paragraphs with headings (by their style, `styles` maps ids to names) as
 * the section path, list items, and tables as rows of cells. Each open
 * paragraph and row keeps its own text, so a paragraph inside another (a
 * text box) or a row inside another (a nested table) neither clears nor
 * repeats the outer one's, and no text is copied once per level of nesting.
 */
export async function docxBlocks(
  xml: string,
  styles: ReadonlyMap<string, string>,
): Promise<ParsedDocument> {
  const { Parser } = await import("htmlparser2");
  const blocks: Block[] = [];
  const path: string[] = [];
  const paragraphs: Paragraph[] = [];
  const rows: string[][] = [];
  let title: string | undefined;
  let textDepth = 0;
  let tableDepth = 0;
  let tableRows: string[] = [];
  const append = (text: string) => {
    const paragraph = paragraphs.at(-1);
    if (paragraph) paragraph.text += text;
  };
  const closeParagraph = () => {
    const paragraph = paragraphs.pop();
    if (!paragraph) return;
    const clean = paragraph.text.replace(/[ \t]+/g, " ").trim();
    if (tableDepth > 0) {
      const row = rows.at(-1);
      if (row) row.push(clean);
      else if (clean) tableRows.push(clean);
      return;
    }
    if (!clean) return;
    const style = paragraph.style;
    const level = headingLevel(style ? styles.get(style) ?? style.toLowerCase() : undefined);
    if (level === "title") {
      title ??= clean;
      blocks.push({ kind: "heading", text: clean, section: [], level: 1 });
    } else if (level !== undefined) {
      path.splice(level - 1, path.length, clean);
      blocks.push({ kind: "heading", text: clean, section: [...path], level });
    } else {
      const kind = paragraph.listItem ? "list" : "paragraph";
      blocks.push({ kind, text: clean, section: [...path] });
    }
  };
  const parser = new Parser({
    onopentag(tag, attributes) {
      if (tag === "w:p") paragraphs.push({ text: "", style: undefined, listItem: false });
      else if (tag === "w:pstyle") {
        const paragraph = paragraphs.at(-1);
        if (paragraph) paragraph.style = attributes["w:val"];
      } else if (tag === "w:numpr") {
        const paragraph = paragraphs.at(-1);
        if (paragraph) paragraph.listItem = true;
      } else if (tag === "w:t") textDepth++;
      else if (tag === "w:tab") append("\t");
      else if (tag === "w:br" || tag === "w:cr") append("\n");
      else if (tag === "w:tbl") tableDepth++;
      else if (tag === "w:tr") rows.push([]);
    },
    ontext(value) {
      if (textDepth > 0) append(value);
    },
    onclosetag(tag) {
      if (tag === "w:t") textDepth = Math.max(0, textDepth - 1);
      else if (tag === "w:p") closeParagraph();
      else if (tag === "w:tr") {
        const row = rows.pop();
        if (row?.some(Boolean)) tableRows.push(row.join(" | "));
      } else if (tag === "w:tbl") {
        tableDepth = Math.max(0, tableDepth - 1);
        if (tableDepth === 0 && tableRows.length) {
          blocks.push({ kind: "table", text: tableRows.join("\n"), section: [...path] });
          tableRows = [];
        }
      }
    },
  }, { xmlMode: true, lowerCaseTags: true, lowerCaseAttributeNames: true });
  fastenOpenElements(parser);
  const pause = yieldingEvery();
  for (let at = 0; at < xml.length; at += SLICE_CHARS) {
    parser.write(xml.slice(at, at + SLICE_CHARS));
    await pause();
  }
  parser.end();
  title ??= blocks.find((block) => block.kind === "heading" && block.level === 1)?.text;
  return title ? { title, blocks } : { blocks };
}

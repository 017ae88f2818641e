import type { Block, ParsedDocument } from "../../../shared/documents/blocks.ts";
import { DocumentRefusedError } from "../../../shared/documents/refusal.ts";
import type { FileLimits } from "./limits.ts";
import { yieldingEvery } from "./yielding.ts";
import { unzipEntries } from "./unzip.ts";

const DOCUMENT = "word/document.xml";
/** XML handed to the parser at a time, with a turn for the event loop between (workerd). */
const SLICE_CHARS = 64 * 1024;
const STYLES = "word/styles.xml";

/** Style ids to their names (`Heading1` → `heading 1`), so localized Word files work too. */
async function styleNames(xml: string | undefined): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  if (!xml) return names;
  const { Parser } = await import("htmlparser2");
  let id: string | undefined;
  const parser = new Parser({
    onopentag(name, attributes) {
      if (name === "w:style") id = attributes["w:styleid"];
      else if (name === "w:name" && id) names.set(id, (attributes["w:val"] ?? "").toLowerCase());
    },
  }, { xmlMode: true, lowerCaseAttributeNames: true });
  parser.write(xml);
  parser.end();
  return names;
}

/** `heading 2` → 2, `title` → 1 (as the title), anything else: not a heading. */
function headingLevel(style: string | undefined): number | "title" | undefined {
  if (!style) return undefined;
  if (style === "title") return "title";
  const level = /^heading\s*([1-9])$/.exec(style)?.[1];
  return level ? Number(level) : undefined;
}

/**
 * A Word document's text: paragraphs with headings (by their style) as the
 * section path, list items, and tables as rows of cells. The archive is
 * inflated with the `ARCHIVE_MAX_EXPANDED_BYTES` bound.
 */
export async function parseDocx(
  bytes: Uint8Array,
  name: string,
  limits: FileLimits,
): Promise<ParsedDocument> {
  const entries = await unzipEntries(bytes, [DOCUMENT, STYLES], {
    file: name,
    maxExpandedBytes: limits.maxExpandedBytes,
  });
  const documentXml = entries.get(DOCUMENT);
  if (!documentXml) {
    throw new DocumentRefusedError(name, "unreadable", `is a zip without ${DOCUMENT}`);
  }
  const decoder = new TextDecoder();
  const styles = await styleNames(
    entries.has(STYLES) ? decoder.decode(entries.get(STYLES)) : undefined,
  );
  const { Parser } = await import("htmlparser2");
  const blocks: Block[] = [];
  const path: string[] = [];
  let title: string | undefined;
  let text = "";
  let style: string | undefined;
  let listItem = false;
  let inText = false;
  let tableDepth = 0;
  let row: string[] = [];
  let rows: string[] = [];
  const parser = new Parser({
    onopentag(tag, attributes) {
      if (tag === "w:p") {
        text = "";
        style = undefined;
        listItem = false;
      } else if (tag === "w:pstyle") style = attributes["w:val"];
      else if (tag === "w:numpr") listItem = true;
      else if (tag === "w:t") inText = true;
      else if (tag === "w:tab") text += "\t";
      else if (tag === "w:br" || tag === "w:cr") text += "\n";
      else if (tag === "w:tbl") tableDepth++;
      else if (tag === "w:tr") row = [];
    },
    ontext(value) {
      if (inText) text += value;
    },
    onclosetag(tag) {
      if (tag === "w:t") inText = false;
      else if (tag === "w:p") {
        const clean = text.replace(/[ \t]+/g, " ").trim();
        if (tableDepth > 0) {
          row.push(clean);
          return;
        }
        if (!clean) return;
        const level = headingLevel(style ? styles.get(style) ?? style.toLowerCase() : undefined);
        if (level === "title") {
          title ??= clean;
          blocks.push({ kind: "heading", text: clean, section: [], level: 1 });
        } else if (level !== undefined) {
          path.splice(level - 1, path.length, clean);
          blocks.push({ kind: "heading", text: clean, section: [...path], level });
        } else {
          blocks.push({ kind: listItem ? "list" : "paragraph", text: clean, section: [...path] });
        }
      } else if (tag === "w:tr") {
        if (row.some(Boolean)) rows.push(row.join(" | "));
      } else if (tag === "w:tbl") {
        tableDepth--;
        if (tableDepth === 0 && rows.length) {
          blocks.push({ kind: "table", text: rows.join("\n"), section: [...path] });
          rows = [];
        }
      }
    },
  }, { xmlMode: true, lowerCaseTags: true, lowerCaseAttributeNames: true });
  const xml = decoder.decode(documentXml);
  const pause = yieldingEvery();
  for (let at = 0; at < xml.length; at += SLICE_CHARS) {
    parser.write(xml.slice(at, at + SLICE_CHARS));
    await pause();
  }
  parser.end();
  title ??= blocks.find((block) => block.kind === "heading" && block.level === 1)?.text;
  return title ? { title, blocks } : { blocks };
}

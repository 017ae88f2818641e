import type { Block, BlockKind, ParsedDocument } from "../../../shared/documents/blocks.ts";

const ATX_HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const SETEXT_UNDERLINE = /^ {0,3}(=+|-+)[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const LIST_ITEM = /^ {0,3}(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)/;
const TABLE_DELIMITER = /^ {0,3}\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;
const THEMATIC_BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const FRONT_MATTER_TITLE = /^title:[ \t]*["']?(.*?)["']?[ \t]*$/m;

/**
 * Markdown as blocks: ATX and setext headings (with their level and heading
 * path), paragraphs, lists (an item with its continuation lines), fenced code
 * and pipe tables, each one block so the chunker can split it at its own
 * boundaries. The title is the front matter's `title:` or the first `#`
 * heading. Pure: no Markdown library, nothing rendered.
 *
 * @example
 * parseMarkdown("# RoBERTa\n## 4.1 Training\nWe train longer.").blocks[2];
 * // { kind: "paragraph", text: "We train longer.", section: ["RoBERTa", "4.1 Training"] }
 */
export function parseMarkdown(text: string): ParsedDocument {
  const { body, title: frontTitle } = withoutFrontMatter(text.replace(/\r\n?/g, "\n"));
  const lines = body.split("\n");
  const blocks: Block[] = [];
  const path: { level: number; text: string }[] = [];
  const section = () => path.map((heading) => heading.text);
  const push = (kind: BlockKind, content: string[]) => {
    const joined = content.join("\n").trim();
    if (joined) blocks.push({ kind, text: joined, section: section() });
  };
  const heading = (level: number, content: string) => {
    while (path.length && path[path.length - 1]!.level >= level) path.pop();
    path.push({ level, text: content });
    blocks.push({ kind: "heading", text: content, section: section(), level });
  };
  let at = 0;
  while (at < lines.length) {
    const line = lines[at]!;
    const atx = ATX_HEADING.exec(line);
    const fence = FENCE.exec(line);
    if (!line.trim() || THEMATIC_BREAK.test(line)) {
      at++;
    } else if (atx) {
      const content = (atx[2] ?? "").trim();
      if (content) heading(atx[1]!.length, content);
      at++;
    } else if (fence) {
      const close = new RegExp(`^ {0,3}${fence[1]![0]}{${fence[1]!.length},}[ \\t]*$`);
      let end = at + 1;
      while (end < lines.length && !close.test(lines[end]!)) end++;
      push("code", lines.slice(at + 1, end));
      at = end + 1;
    } else if (isTableStart(lines, at)) {
      let end = at + 2;
      while (end < lines.length && lines[end]!.includes("|") && lines[end]!.trim()) end++;
      push("table", lines.slice(at, end).map((row) => row.trim()));
      at = end;
    } else if (LIST_ITEM.test(line)) {
      let end = at + 1;
      while (end < lines.length && continuesList(lines, end)) end++;
      push("list", lines.slice(at, end));
      at = end;
    } else {
      let end = at + 1;
      while (end < lines.length && continuesParagraph(lines[end]!, lines, end)) end++;
      const underline = end < lines.length ? SETEXT_UNDERLINE.exec(lines[end]!) : null;
      if (underline && end - at >= 1) {
        heading(underline[1]![0] === "=" ? 1 : 2, lines.slice(at, end).join(" ").trim());
        at = end + 1;
      } else {
        push("paragraph", lines.slice(at, end).map((row) => row.replace(/^ {0,3}> ?/, "")));
        at = end;
      }
    }
  }
  const title = frontTitle ||
    blocks.find((block) => block.kind === "heading" && block.level === 1)?.text;
  return title ? { title, blocks } : { blocks };
}

function withoutFrontMatter(text: string): { body: string; title?: string } {
  const match = /^---\n([\s\S]*?)\n---[ \t]*(?:\n|$)/.exec(text);
  if (!match) return { body: text };
  const title = FRONT_MATTER_TITLE.exec(match[1]!)?.[1]?.trim();
  const body = text.slice(match[0].length);
  return title ? { body, title } : { body };
}

function isTableStart(lines: string[], at: number): boolean {
  const next = lines[at + 1];
  return lines[at]!.includes("|") && next !== undefined && next.includes("-") &&
    TABLE_DELIMITER.test(next);
}

/** A list goes on through items, indented continuation lines, and blank lines between items. */
function continuesList(lines: string[], at: number): boolean {
  const line = lines[at]!;
  if (LIST_ITEM.test(line) || /^(?: {2,}|\t)\S/.test(line)) return true;
  if (!line.trim()) {
    const next = lines[at + 1];
    return next !== undefined && (LIST_ITEM.test(next) || /^(?: {2,}|\t)\S/.test(next));
  }
  // A lazy continuation: a plain line right after an item's text.
  return !!lines[at - 1]?.trim() && !startsBlock(lines, at);
}

function continuesParagraph(line: string, lines: string[], at: number): boolean {
  return !!line.trim() && !startsBlock(lines, at) && !SETEXT_UNDERLINE.test(line);
}

function startsBlock(lines: string[], at: number): boolean {
  const line = lines[at]!;
  return ATX_HEADING.test(line) || FENCE.test(line) || LIST_ITEM.test(line) ||
    isTableStart(lines, at);
}

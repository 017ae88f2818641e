import type { Block, BlockKind, ParsedDocument } from "../../../shared/documents/blocks.ts";

/** Elements whose content is never the page's text: code, styling, navigation, chrome. */
const SKIPPED = new Set([
  "script",
  "style",
  "noscript",
  "template",
  "svg",
  "canvas",
  "iframe",
  "object",
  "nav",
  "header",
  "footer",
  "aside",
  "form",
  "button",
  "select",
  "dialog",
]);

/** Elements that end a run of text. */
const BREAKS = new Set([
  "p",
  "div",
  "section",
  "article",
  "main",
  "blockquote",
  "figure",
  "figcaption",
  "ul",
  "ol",
  "dl",
  "dt",
  "dd",
  "hr",
  "body",
]);

const HEADING = /^h([1-6])$/;

/**
 * An HTML page's main content as blocks: the `<main>` or `<article>` when it
 * has one, else the body, without scripts, styles, navigation or markup;
 * headings as the section path, list items, code and table rows kept whole,
 * links' text kept. `<title>` is the title (else the first `<h1>`).
 * htmlparser2 is loaded here, on the first HTML file.
 */
export async function parseHtml(html: string): Promise<ParsedDocument> {
  const { Parser } = await import("htmlparser2");
  const scoped = /<(main|article)[\s>]/i.exec(html)?.[1]?.toLowerCase();
  const blocks: Block[] = [];
  const path: string[] = [];
  const open: string[] = [];
  let skipping = 0;
  let inScope = scoped === undefined ? 1 : 0;
  let inTitle = false;
  let title = "";
  let text = "";
  let tableRows: string[] = [];
  let row: string[] = [];
  let preDepth = 0;

  const push = (kind: BlockKind, value: string, level?: number) => {
    const clean = kind === "code"
      ? value.replace(/^\n+|\s+$/g, "")
      : value.replace(/\s+/g, " ").trim();
    if (!clean) return;
    if (kind === "heading" && level !== undefined) {
      path.splice(level - 1, path.length, clean);
      blocks.push({ kind, text: clean, section: path.filter(Boolean), level });
      return;
    }
    blocks.push({ kind, text: clean, section: path.filter(Boolean) });
  };
  const flush = (kind: BlockKind = "paragraph", level?: number) => {
    push(kind, text, level);
    text = "";
  };

  const parser = new Parser({
    onopentag(name) {
      open.push(name);
      if (name === "title") inTitle = true;
      if (name === scoped) inScope++;
      if (SKIPPED.has(name) || name === "head") skipping++;
      if (skipping || !inScope) return;
      if (name === "br") text += "\n";
      else if (name === "pre") {
        flush();
        preDepth++;
      } else if (HEADING.test(name) || name === "li" || name === "table" || BREAKS.has(name)) {
        flush();
      } else if (name === "tr") row = [];
      else if (name === "td" || name === "th") text = "";
    },
    ontext(value) {
      if (inTitle) title += value;
      if (skipping || !inScope) return;
      text += value;
    },
    onclosetag(name) {
      // Tolerate unclosed tags: close back to the matching open one.
      const at = open.lastIndexOf(name);
      if (at !== -1) open.length = at;
      if (name === "title") inTitle = false;
      const wasSkipping = skipping > 0;
      if (SKIPPED.has(name) || name === "head") skipping = Math.max(0, skipping - 1);
      if (wasSkipping || !inScope) {
        if (name === scoped) inScope--;
        return;
      }
      const heading = HEADING.exec(name);
      if (heading) flush("heading", Number(heading[1]));
      else if (name === "li") flush("list");
      else if (name === "pre") {
        preDepth = Math.max(0, preDepth - 1);
        flush("code");
      } else if (name === "td" || name === "th") {
        row.push(text.replace(/\s+/g, " ").trim());
        text = "";
      } else if (name === "tr") {
        if (row.some(Boolean)) tableRows.push(row.join(" | "));
        row = [];
      } else if (name === "table") {
        blocks.push({ kind: "table", text: tableRows.join("\n"), section: path.filter(Boolean) });
        tableRows = [];
      } else if (BREAKS.has(name)) flush();
      if (name === scoped) inScope--;
    },
  }, { decodeEntities: true, lowerCaseTags: true, recognizeSelfClosing: true });
  parser.write(html);
  parser.end();
  flush();
  const pageTitle = title.replace(/\s+/g, " ").trim() ||
    blocks.find((block) => block.kind === "heading" && block.level === 1)?.text;
  return pageTitle ? { title: pageTitle, blocks } : { blocks };
}

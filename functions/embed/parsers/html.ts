import { fastenOpenElements } from "./html-stack.ts";
import { yieldingEvery } from "./yielding.ts";
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
 * Classes of the permalink anchors documentation generators put in headings
 * (Sphinx and MkDocs `headerlink` with `¶`, Docusaurus `hash-link`,
 * VitePress `header-anchor`, AnchorJS): a sign, not the heading's words.
 */
const PERMALINK_CLASS = /(?:^|\s)(?:headerlink|hash-link|header-anchor|anchorjs-link)(?:\s|$)/;

/** Permalink signs left at a heading's ends by generators that use no anchor class. */
const PERMALINK_SIGNS = /^[\s¶§🔗]+|[\s¶§🔗]+$/gu;

/** Text handed to the parser at a time, with a turn for the event loop between (workerd). */
const SLICE_CHARS = 64 * 1024;

/**
 * An HTML page's main content as blocks: the `<main>` or `<article>` when it
 * has one, else the body, without scripts, styles, navigation or markup;
 * headings as the section path, list items, code and table rows kept whole,
 * links' text kept, permalink signs (`¶`, `§`, `#` anchors) left out.
 * `<title>` is the title (else the first `<h1>`). htmlparser2 is loaded here,
 * on the first HTML file; the page is fed to it in slices, with turns for the
 * event loop between them.
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

  /** For each open `<a>`: whether it is a permalink (its text is skipped). */
  const anchors: boolean[] = [];
  const push = (kind: BlockKind, value: string, level?: number) => {
    const clean = kind === "code"
      ? value.replace(/^\n+|\s+$/g, "")
      : kind === "heading"
      ? value.replace(/\s+/g, " ").replace(PERMALINK_SIGNS, "")
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
    onopentag(name, attributes) {
      open.push(name);
      if (name === "title") inTitle = true;
      if (name === scoped) inScope++;
      if (name === "a") {
        const permalink = PERMALINK_CLASS.test(attributes.class ?? "");
        anchors.push(permalink);
        if (permalink) skipping++;
      }
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
      if (name === "a" && anchors.pop()) skipping = Math.max(0, skipping - 1);
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
  fastenOpenElements(parser);
  const pause = yieldingEvery();
  for (let at = 0; at < html.length; at += SLICE_CHARS) {
    parser.write(html.slice(at, at + SLICE_CHARS));
    await pause();
  }
  parser.end();
  flush();
  const pageTitle = title.replace(/\s+/g, " ").trim() ||
    blocks.find((block) => block.kind === "heading" && block.level === 1)?.text;
  return pageTitle ? { title: pageTitle, blocks } : { blocks };
}

import type { Block, ParsedDocument } from "../../../shared/documents/blocks.ts";

/** Markdown as headings and paragraphs, each paragraph under its heading path. */
export function parseMarkdown(text: string): ParsedDocument {
  const blocks: Block[] = [];
  const path: string[] = [];
  let title: string | undefined;
  for (const part of text.split(/\n\s*\n/)) {
    const trimmed = part.trim();
    if (!trimmed) continue;
    const heading = /^(#{1,6})\s+(.+)$/.exec(trimmed);
    if (heading && !trimmed.includes("\n")) {
      const level = heading[1]!.length;
      const name = heading[2]!.trim();
      title ??= level === 1 ? name : undefined;
      path.splice(level - 1, path.length, name);
      blocks.push({ kind: "heading", text: name, section: [...path], level });
    } else {
      blocks.push({ kind: "paragraph", text: trimmed, section: [...path] });
    }
  }
  return title ? { title, blocks } : { blocks };
}

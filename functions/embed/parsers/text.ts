import type { Block, ParsedDocument } from "../../../shared/documents/blocks.ts";

/** Plain text as paragraphs: blank lines separate them. */
export function parsePlainText(text: string): ParsedDocument {
  const blocks: Block[] = text.split(/\n\s*\n/).map((part) => part.trim()).filter(Boolean)
    .map((part) => ({ kind: "paragraph", text: part, section: [] }));
  return { blocks };
}

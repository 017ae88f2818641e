import type { Block } from "../documents/blocks.ts";

/**
 * Plain text as paragraph blocks: a blank line (spaces allowed) ends a
 * paragraph; line breaks inside one are kept, as the text had them.
 *
 * @example
 * paragraphBlocks("One.\nStill one.\n\nTwo.").map((b) => b.text); // ["One.\nStill one.", "Two."]
 */
export function paragraphBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  for (const paragraph of text.replace(/\r\n?/g, "\n").split(/\n[ \t]*\n/)) {
    const trimmed = paragraph.trim();
    if (trimmed) blocks.push({ kind: "paragraph", text: trimmed, section: [] });
  }
  return blocks;
}

import type { ParsedDocument } from "../../../shared/documents/blocks.ts";
import { paragraphBlocks } from "../../../shared/text/paragraphs.ts";

/**
 * Plain text: paragraphs separated by blank lines, no headings and no title
 * (the caller names the document, usually after its file).
 */
export function parsePlainText(text: string): ParsedDocument {
  return { blocks: paragraphBlocks(text) };
}

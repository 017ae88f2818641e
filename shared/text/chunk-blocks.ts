import type { Block } from "../documents/blocks.ts";
import { chunkText } from "./chunk.ts";

/** A chunk of a parsed document: its text, the pages it covers and its heading path. */
export type BlockChunk = { text: string; page?: number; page_end?: number; section?: string };

/**
 * Packs blocks into token windows, one run of windows per page, so every
 * chunk of a paged source knows its page. (A first version: the structural
 * chunker replaces it.)
 */
export function chunkBlocks(
  blocks: Block[],
  options: { size: number; overlap: number },
): BlockChunk[] {
  const runs: { page: number | undefined; section: string[]; texts: string[] }[] = [];
  for (const block of blocks) {
    const last = runs.at(-1);
    if (last && last.page === block.page) last.texts.push(block.text);
    else runs.push({ page: block.page, section: block.section, texts: [block.text] });
  }
  return runs.flatMap((run) =>
    chunkText(run.texts.join("\n\n"), options).map((chunk) => ({
      text: chunk.text,
      ...(run.page === undefined ? {} : { page: run.page, page_end: run.page }),
      ...(run.section.length ? { section: run.section.join(" > ") } : {}),
    }))
  );
}

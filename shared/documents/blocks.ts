/**
 * A parsed document as the chunker sees it: a title and a list of blocks in
 * reading order. Every parser (Markdown, plain text, and the file parsers)
 * produces this shape, so the chunker and the citations know one format.
 */

/** What a block is: the chunker splits each kind at its own boundaries (rows, items, sentences). */
export type BlockKind = "heading" | "paragraph" | "list" | "code" | "table";

/**
 * One block of text. `section` is the heading path the block sits under (a
 * heading's own path ends with itself); `page` is set for paged sources
 * (PDF), counted from 1; `level` is a heading's depth (1 for `#`).
 *
 * @example
 * { kind: "paragraph", text: "We train longer.", section: ["RoBERTa", "4.1 Training"], page: 6 }
 */
export type Block = {
  kind: BlockKind;
  text: string;
  page?: number;
  section: string[];
  level?: number;
};

/** A parser's output: the document's title when it has one, and its blocks. */
export type ParsedDocument = { title?: string; blocks: Block[] };

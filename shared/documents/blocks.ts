/** What a block of a parsed document is. */
export type BlockKind = "heading" | "paragraph" | "list" | "code" | "table";

/** A piece of a document's text with its page (paged sources) and heading path. */
export type Block = {
  kind: BlockKind;
  text: string;
  page?: number;
  section: string[];
  level?: number;
};

/** What every parser returns: the document's title, when it has one, and its blocks in order. */
export type ParsedDocument = { title?: string; blocks: Block[] };

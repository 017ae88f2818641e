import type { Block } from "../documents/blocks.ts";
import { lineSpans, sentenceSpans, type Span } from "./sentences.ts";
import { countTokens, tokenize } from "./tokenize.ts";

/** A chunk of blocks: its text, the pages it spans (paged sources), its heading path. */
export type BlockChunk = { text: string; page?: number; page_end?: number; section?: string };

/** A run of one block's text the packer never cuts: the block, an item, a row, a sentence. */
type Piece = Span & {
  block: number;
  tokens: number;
  /** On a block's first piece: the whole block's tokens (0 on the others). */
  blockTokens: number;
};

/**
 * A block that does not fit what is left of a chunk starts the next chunk
 * when the chunk is at least this full; otherwise its first sentences (rows,
 * items) fill the chunk. Chunks stay near the budget without cutting blocks
 * that need not be cut.
 */
const FULL_ENOUGH = 0.8;

const LIST_ITEM = /^[ \t]{0,3}(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)/;

/**
 * Packs blocks into chunks of at most `size` tokens (as `tokenize` counts
 * them). A chunk never crosses a heading (or a change of heading path); inside
 * a section, whole blocks are packed first, and a block too big for one chunk
 * is split at its own boundaries: a table at rows, a list at items, code at
 * lines, prose at sentences (`Intl.Segmenter`). Only a single sentence or row
 * longer than `size` is cut, and then between words. Consecutive chunks of a
 * section share up to `overlap` tokens of whole pieces from the end of the
 * earlier one. A heading directly followed by its own subheading makes no
 * chunk of its own: its text is in the subsection's path.
 *
 * @example
 * chunkBlocks(parseMarkdown(markdown).blocks, { size: 400, overlap: 50 });
 * // [{ text: "4.1 Training\n\nWe train longer...", section: "RoBERTa > 4.1 Training", page: 6 }]
 */
export function chunkBlocks(
  blocks: Block[],
  options: { size: number; overlap: number },
): BlockChunk[] {
  const { size, overlap } = options;
  if (!Number.isInteger(size) || size < 1) throw new RangeError("size must be a positive integer");
  if (!Number.isInteger(overlap) || overlap < 0 || overlap >= size) {
    throw new RangeError("overlap must be an integer in [0, size)");
  }
  const chunks: BlockChunk[] = [];
  const groups = sections(blocks);
  groups.forEach((group, position) => {
    const next = groups[position + 1];
    if (group.every((at) => blocks[at]!.kind === "heading") && next) {
      const path = blocks[group[0]!]!.section;
      const nextPath = blocks[next[0]!]!.section;
      if (nextPath.length > path.length && path.every((name, i) => nextPath[i] === name)) return;
    }
    const pieces = group.flatMap((at) => piecesOf(blocks[at]!, at, size));
    for (const packed of pack(pieces, size, overlap)) chunks.push(render(packed, blocks));
  });
  return chunks;
}

/** Block indexes grouped by section: a heading, or a new heading path, starts a group. */
function sections(blocks: Block[]): number[][] {
  const groups: number[][] = [];
  let key: string | undefined;
  blocks.forEach((block, at) => {
    if (!block.text.trim()) return;
    const blockKey = block.section.join("\u0000");
    if (!groups.length || block.kind === "heading" || blockKey !== key) groups.push([]);
    groups[groups.length - 1]!.push(at);
    key = blockKey;
  });
  return groups;
}

/**
 * A block as pieces the packer may break between: its sentences (prose),
 * items (lists), rows (tables) or lines (code); a unit longer than `size`
 * is cut between words. The first piece knows the whole block's size, so
 * the packer can keep a block whole when it fits.
 */
function piecesOf(block: Block, at: number, size: number): Piece[] {
  const pieces = unitsOf(block).flatMap((span) => {
    const tokens = countTokens(block.text.slice(span.start, span.end));
    if (tokens <= size) return tokens ? [{ ...span, block: at, tokens, blockTokens: 0 }] : [];
    // A list item or a long line of prose: by sentences, and a sentence still too long by words.
    const inner = block.kind === "list"
      ? sentenceSpans(block.text.slice(span.start, span.end)).map((s) => shift(s, span.start))
      : [span];
    return inner.flatMap((sentence) => wordWindows(block.text, sentence, size))
      .map((piece) => ({ ...piece, block: at, blockTokens: 0 }));
  });
  if (pieces[0]) pieces[0].blockTokens = pieces.reduce((sum, piece) => sum + piece.tokens, 0);
  return pieces;
}

/** The units a block is split at before its sentences: rows, items, lines. */
function unitsOf(block: Block): Span[] {
  if (block.kind === "table" || block.kind === "code") return lineSpans(block.text);
  if (block.kind === "heading") return [{ start: 0, end: block.text.length }];
  if (block.kind !== "list") return sentenceSpans(block.text);
  const items: Span[] = [];
  for (const line of lineSpans(block.text)) {
    const last = items[items.length - 1];
    if (last && !LIST_ITEM.test(block.text.slice(line.start, line.end))) last.end = line.end;
    else items.push({ ...line });
  }
  return items;
}

/** A span cut into runs of at most `size` tokens, each from a word's start to a word's end. */
function wordWindows(
  text: string,
  span: Span,
  size: number,
): (Span & { tokens: number })[] {
  const tokens = tokenize(text.slice(span.start, span.end));
  const windows: (Span & { tokens: number })[] = [];
  for (let first = 0; first < tokens.length; first += size) {
    const last = Math.min(first + size, tokens.length) - 1;
    windows.push({
      start: span.start + tokens[first]!.start,
      end: span.start + tokens[last]!.end,
      tokens: last - first + 1,
    });
  }
  return windows;
}

function shift(span: Span, by: number): Span {
  return { start: span.start + by, end: span.end + by };
}

/**
 * Greedy packing under `size`, breaking between blocks when the chunk is full
 * enough; each new chunk starts with the last pieces (≤ `overlap`) of the one
 * before.
 */
function pack(pieces: Piece[], size: number, overlap: number): Piece[][] {
  const packed: Piece[][] = [];
  let current: Piece[] = [];
  let tokens = 0;
  for (const piece of pieces) {
    const blockDoesNotFit = piece.blockTokens > 0 && tokens + piece.blockTokens > size &&
      tokens >= FULL_ENOUGH * size;
    if (current.length && (tokens + piece.tokens > size || blockDoesNotFit)) {
      packed.push(current);
      const carried: Piece[] = [];
      let carriedTokens = 0;
      for (let at = current.length - 1; at >= 0; at--) {
        const candidate = current[at]!;
        if (carriedTokens + candidate.tokens > overlap) break;
        if (carriedTokens + candidate.tokens + piece.tokens > size) break;
        carried.unshift(candidate);
        carriedTokens += candidate.tokens;
      }
      current = carried;
      tokens = carriedTokens;
    }
    current.push(piece);
    tokens += piece.tokens;
  }
  if (current.length) packed.push(current);
  return packed;
}

/** One chunk's text (a block's pieces as one slice, blocks apart by a blank line) and metadata. */
function render(pieces: Piece[], blocks: Block[]): BlockChunk {
  const parts: string[] = [];
  let run: Piece | undefined;
  const flush = () => {
    if (run) parts.push(blocks[run.block]!.text.slice(run.start, run.end));
  };
  for (const piece of pieces) {
    if (run && run.block === piece.block && piece.start >= run.end) {
      run = { ...run, end: piece.end };
    } else {
      flush();
      run = { ...piece };
    }
  }
  flush();
  const chunk: BlockChunk = { text: parts.join("\n\n") };
  const pages = pieces.map((piece) => blocks[piece.block]!.page)
    .filter((page): page is number => page !== undefined);
  if (pages.length) {
    chunk.page = Math.min(...pages);
    const last = Math.max(...pages);
    if (last !== chunk.page) chunk.page_end = last;
  }
  const section = blocks[pieces[0]!.block]!.section;
  if (section.length) chunk.section = section.join(" > ");
  return chunk;
}

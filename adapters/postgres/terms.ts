import { analyze } from "../../shared/text/analyze.ts";
import { type IndexedChunk, searchableText } from "../../shared/vector/port.ts";

/**
 * A lexeme may hold at most 2,047 bytes in a `tsvector`; a longer "word" (a
 * hash, a base64 blob) is no keyword anyone types, and is left out.
 */
const MAX_LEXEME_BYTES = 2046;
/** Positions a `tsvector` keeps per lexeme: a term's count is capped here (BM25 saturates long before). */
const MAX_POSITIONS = 256;

const encoder = new TextEncoder();

/** A chunk's BM25 terms: the same analyzed terms the embedded index counts, with their counts. */
export type ChunkTerms = { counts: Map<string, number>; length: number };

export function chunkTerms(chunk: IndexedChunk): ChunkTerms {
  const analyzed = analyze(searchableText(chunk));
  const counts = new Map<string, number>();
  for (const term of analyzed) {
    if (encoder.encode(term).length > MAX_LEXEME_BYTES) continue;
    counts.set(term, (counts.get(term) ?? 0) + 1);
  }
  return { counts, length: analyzed.length };
}

/** A lexeme quoted for `tsvector`/`tsquery` input: taken verbatim, never re-parsed or stemmed. */
function lexeme(term: string): string {
  return `'${term.replaceAll("\\", "\\\\").replaceAll("'", "''")}'`;
}

/**
 * The `tsvector` literal of a chunk's terms: each term once, with as many
 * positions as it occurs (up to 256), so a term's count is the length of its
 * position list. The analyzer (stop words, Porter stems) is sift's, not a
 * Postgres text-search configuration, so both indexes agree on what a term is.
 *
 * @example
 * tsvectorLiteral(new Map([["bert", 2], ["model", 1]])); // "'bert':1,2 'model':1"
 */
export function tsvectorLiteral(counts: ReadonlyMap<string, number>): string {
  return [...counts].map(([term, count]) => {
    const positions = Array.from({ length: Math.min(count, MAX_POSITIONS) }, (_, i) => i + 1);
    return `${lexeme(term)}:${positions.join(",")}`;
  }).join(" ");
}

/** The query's distinct terms, as the embedded index's BM25 takes them. */
export function queryTerms(text: string): string[] {
  return [...new Set(analyze(text))].filter((term) =>
    encoder.encode(term).length <= MAX_LEXEME_BYTES
  );
}

/**
 * A term as a `tsquery` of its own (`'bert'`): `sift_sparse` joins those it
 * reads with `|`, and the GIN index finds the chunks holding any of them.
 */
export function termQuery(term: string): string {
  return lexeme(term);
}

/**
 * How many chunks hold each term, summed over `chunks`, sorted by term: the
 * order every writer updates term rows in.
 */
export function documentFrequencies(chunks: readonly ChunkTerms[]): Map<string, number> {
  const frequencies = new Map<string, number>();
  for (const { counts } of chunks) {
    for (const term of counts.keys()) frequencies.set(term, (frequencies.get(term) ?? 0) + 1);
  }
  return frequencies;
}

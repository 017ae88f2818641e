/** Words a period ends without ending the sentence ("e.g.", "et al.", "Dr."). */
const ABBREVIATIONS = new Set(
  ("e.g i.e etc al vs cf fig figs eq eqs no nos dr mr mrs ms prof st jr sr inc ltd co approx " +
    "ca resp sec vol pp ed eds")
    .split(" "),
);

/** End punctuation (and closing quotes or brackets after it), then space, then a new start. */
const BOUNDARY = /([.!?]["')\]]*)\s+(?=["'(\[]?[\p{Lu}\p{N}])/gu;

function endsWithAbbreviation(text: string): boolean {
  const word = /(\S+)\.["')\]]*$/.exec(text)?.[1]?.toLowerCase().replace(/^[("'[]+/, "");
  if (word === undefined) return false;
  // A single letter is an initial ("J. Smith"), not the end of a sentence.
  return ABBREVIATIONS.has(word) || /^\p{L}$/u.test(word);
}

/**
 * Splits a passage into sentences, as ToT-RAG screens them (paper 003 §3.2):
 * paragraphs at blank lines, then at end punctuation followed by a capital
 * or a digit, except after an abbreviation or an initial. Line breaks inside
 * a paragraph are wrapping, not boundaries, and whitespace is collapsed.
 *
 * @example
 * splitSentences("BM25 uses k1 = 1.2. Robertson et al. showed it."); // two sentences
 */
export function splitSentences(text: string): string[] {
  const sentences: string[] = [];
  for (const paragraph of text.split(/\n\s*\n/)) {
    const flat = paragraph.replace(/\s+/g, " ").trim();
    let start = 0;
    for (const match of flat.matchAll(BOUNDARY)) {
      const end = match.index + match[1]!.length;
      const piece = flat.slice(start, end);
      if (endsWithAbbreviation(piece)) continue;
      sentences.push(piece.trim());
      start = match.index + match[0].length;
    }
    sentences.push(flat.slice(start).trim());
  }
  return sentences.filter((sentence) => /[\p{L}\p{N}]/u.test(sentence));
}

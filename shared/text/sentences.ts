/** A span of a text, end exclusive. */
export type Span = { start: number; end: number };

/**
 * Sentence spans through `Intl.Segmenter` (ICU, on Deno and workerd alike).
 * A single line break is read as a space first: Unicode's rules end a
 * sentence at every line break, and hard-wrapped text (pdftotext, e-mail)
 * would fall apart into lines. Spans are trimmed of surrounding white space.
 *
 * @example
 * sentenceSpans("It rains.\nWe stay in. Tea?").length; // 3
 */
export function sentenceSpans(text: string): Span[] {
  const segmenter = new Intl.Segmenter(undefined, { granularity: "sentence" });
  const spans: Span[] = [];
  // Same length as `text`, so the segments' offsets are the text's offsets.
  const flattened = text.replace(/\n(?!\n)/g, " ");
  for (const { segment, index } of segmenter.segment(flattened)) {
    const start = index + (segment.length - segment.trimStart().length);
    const end = index + segment.trimEnd().length;
    if (end > start) spans.push({ start, end });
  }
  return spans;
}

/**
 * Spans of whole lines (non-blank), for blocks whose unit is the line: table
 * rows, list items, code.
 */
export function lineSpans(text: string): Span[] {
  const spans: Span[] = [];
  let start = 0;
  for (const line of text.split("\n")) {
    if (line.trim()) spans.push({ start, end: start + line.length });
    start += line.length + 1;
  }
  return spans;
}

/**
 * Reads a rerank prompt's user message back out (see `renderRerankUser`):
 * `Document N: [title: ...; published: ...]` blocks, then `Question: ...`.
 * The renderer prefixes document lines that look like this structure with
 * `> `, so only line-start matches are structure; and documents are read
 * only before the last `Question:` line, so a document cannot pose as it.
 */

/** One numbered document with the metadata the criteria depend on. */
export type NumberedDocument = {
  /** The number the prompt gave it, from 1. */
  number: number;
  title: string;
  source: string;
  url: string;
  published: string;
  authors: string;
  text: string;
};

export type NumberedPrompt = { question: string; documents: NumberedDocument[] };

const QUESTION_LINE = /^Question:[ \t]*(.*)$/gm;
const DOCUMENT_LINE = /^Document (\d+):[ \t]*(.*)$/gm;
const FIELDS = ["title", "source", "url", "published", "authors"] as const;
type Field = typeof FIELDS[number];
// Split only before a known key, so a value holding "; " (a title) stays whole.
const FIELD_SPLIT = new RegExp(`;\\s*(?=(?:${FIELDS.join("|")}):)`);

/** `[title: Okapi; authors: A, B]` as fields; anything else on the header line is ignored. */
function parseHeader(header: string): Record<Field, string> {
  const fields: Record<Field, string> = {
    title: "",
    source: "",
    url: "",
    published: "",
    authors: "",
  };
  const inside = /^\[(.*)\]\s*$/.exec(header.trim())?.[1];
  if (inside === undefined) return fields;
  for (const part of inside.split(FIELD_SPLIT)) {
    const match = /^\s*(\w+):\s*(.*?)\s*$/.exec(part);
    const key = match?.[1] as Field | undefined;
    if (key && (FIELDS as readonly string[]).includes(key)) fields[key] = match?.[2] ?? "";
  }
  return fields;
}

/**
 * The question (last `Question:` line; the whole message when there is
 * none) and the numbered documents before it, in the order given.
 *
 * @example
 * parseNumberedPrompt("Document 1: [title: Okapi]\nBM25 ...\n\nQuestion: What is BM25?\nAnswer:");
 * // { question: "What is BM25?", documents: [{ number: 1, title: "Okapi", text: "BM25 ...", ... }] }
 */
export function parseNumberedPrompt(message: string): NumberedPrompt {
  let question: { start: number; text: string } | undefined;
  for (const match of message.matchAll(QUESTION_LINE)) {
    question = { start: match.index, text: (match[1] ?? "").trim() };
  }
  const body = message.slice(0, question?.start ?? message.length);
  const headers = [...body.matchAll(DOCUMENT_LINE)];
  const documents = headers.map((header, i) => {
    const start = header.index + header[0].length;
    const end = headers[i + 1]?.index ?? body.length;
    return {
      number: Number(header[1]),
      ...parseHeader(header[2] ?? ""),
      text: body.slice(start, end).trim(),
    };
  });
  return { question: question?.text ?? message.trim(), documents };
}

/**
 * Reads our own prompt tags back out of a user message (see `renderDocuments`
 * and the `<question>` tag in `prompts/`). Only the tags we write are trusted:
 * the question is the last `<question>` block, and documents are looked for
 * only before it, so a document cannot pose as the question even if its text
 * was not neutralized.
 */

export type TaggedDocument = { index: number; title: string; text: string };

const QUESTION = /<question>([\s\S]*?)<\/question>/g;
const DOCUMENT = /<document index="(\d+)"([^>]*)>([\s\S]*?)<\/document>/g;
const TITLE = /\btitle="([^"]*)"/;

/** Where the last `<question>` block starts and what it holds, if there is one. */
function lastQuestion(message: string): { start: number; text: string } | undefined {
  let last: { start: number; text: string } | undefined;
  for (const match of message.matchAll(QUESTION)) {
    last = { start: match.index, text: (match[1] ?? "").trim() };
  }
  return last;
}

/**
 * The question of a prompt: the last `<question>` block, or the whole
 * message when there is none.
 *
 * @example
 * parseQuestion("<documents>...</documents>\n<question>What is RRF?</question>"); // "What is RRF?"
 */
export function parseQuestion(message: string): string {
  return lastQuestion(message)?.text ?? message.trim();
}

/** The numbered documents before the question, in the order given. */
export function parseDocuments(message: string): TaggedDocument[] {
  const end = lastQuestion(message)?.start ?? message.length;
  const documents: TaggedDocument[] = [];
  for (const match of message.slice(0, end).matchAll(DOCUMENT)) {
    documents.push({
      index: Number(match[1]),
      title: TITLE.exec(match[2] ?? "")?.[1] ?? "",
      text: (match[3] ?? "").trim(),
    });
  }
  return documents;
}

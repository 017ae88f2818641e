import { withoutQuotedText } from "../llm/reply-text.ts";

/** Telling the reader to leave a document out: "ignore", "disregard", "should not be used". */
const LEAVE_OUT =
  /\b(?:ignore|ignored|disregard|disregarded|discard|discarded|exclude|excluded|omit|omitted|leave\s+(?:it\s+)?out|drop(?:ped)?|throw\s+(?:it\s+)?out|(?:should|must)\s+(?:not|n't)\s+be\s+(?:used|considered|ranked|relied\s+on))\b/i;
const NEGATED = /(?:\b(?:not|never|no\s+need\s+to|without|nothing\s+to)\b|n't)\s+(?:\w+\s+){0,2}$/i;
const NAMED = /\b(?:doc(?:ument)?|passage)s?\s*#?\s*\[?(\d+)\]?|\[(\d+)\]/gi;

function documentsIn(text: string, batchSize: number): number[] {
  return [...text.matchAll(NAMED)].map((match) => Number(match[1] ?? match[2]))
    .filter((doc) => Number.isInteger(doc) && doc >= 1 && doc <= batchSize);
}

/**
 * The documents a reply says to leave out: a sentence that names a document
 * and tells the reader to ignore, disregard or discard it ("Doc 3 does not
 * help at all; please ignore it", "Please disregard Document 1"). A negated
 * one ("I did not ignore any document") drops nothing; quoted text (a
 * document's own "ignore all other documents") is no instruction. A
 * sentence naming several documents drops those named in the clause that
 * says to ignore, else none.
 *
 * @example
 * ignoredDocuments("Doc: 3, Relevance: 6\nDoc 3 does not help at all; please ignore it.", 4); // Set {3}
 */
export function ignoredDocuments(reply: string, batchSize: number): Set<number> {
  const dropped = new Set<number>();
  const text = withoutQuotedText(reply).replace(/[*_`#]/g, "");
  for (const sentence of text.split(/(?<=[.!?])\s+|\n/)) {
    // A score line is a judgment, not an instruction (`Doc: 2, Relevance: 0, Reason: drop it`).
    if (/\b(?:relevance|score|topicality)\s*[:=]\s*\d/i.test(sentence)) continue;
    const verb = LEAVE_OUT.exec(sentence);
    if (!verb || NEGATED.test(sentence.slice(0, verb.index))) continue;
    const named = documentsIn(sentence, batchSize);
    if (named.length <= 1) {
      named.forEach((doc) => dropped.add(doc));
      continue;
    }
    const clause = sentence.split(/[,;]|\bbut\b/).find((part) => LEAVE_OUT.test(part)) ?? "";
    documentsIn(clause, batchSize).forEach((doc) => dropped.add(doc));
  }
  return dropped;
}

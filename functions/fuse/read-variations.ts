import { isRefusal, isRefusalOrSignOff, normalizeReply } from "../../shared/llm/reply-text.ts";
import { z } from "zod";
import { extractJsonObject } from "../../shared/llm/json.ts";
import { relaxedJson } from "../../shared/llm/relaxed-json.ts";

const queriesObject = z.object({ queries: z.array(z.unknown()) });
const LIST_ITEM = /^\s*(?:\d+\s*[.)]|[-*•]|#{1,6}\s*\d+[.)]?)\s+\S/;
const PREAMBLE = /(?::\s*$|^(?:here|sure|okay|ok|certainly|of course)\b)/i;

/**
 * The candidate queries a reply holds, in either output mode: a JSON
 * `{"queries": [...]}` (bare or in a code fence), else a JSON array of
 * strings, else its numbered or bulleted lines (markdown emphasis removed),
 * else, when no line is numbered, its plain lines minus a preamble ("Here
 * are four queries:"). The reply is normalised first; a refusal holds no
 * query, and lines that decline or sign off ("If you have another question,
 * feel free to ask!") are none. `cleanVariations` then de-numbers and de-duplicates.
 *
 * @example
 * readVariations("Sure! Here you go:\n1. **rrf formula**\n2. rank fusion k"); // ["1. rrf formula", "2. rank fusion k"]
 */
export function readVariations(reply: string): string[] {
  const text = normalizeReply(reply);
  // A refusal is no query: searching for "I'm sorry, but I can't…" finds nothing the user asked.
  if (isRefusal(text)) return [];
  const object = queriesObject.safeParse(extractJsonObject(text));
  if (object.success) {
    const strings = object.data.queries.filter((query) => typeof query === "string");
    if (strings.length > 0) return strings;
  }
  const array = jsonArrayOfStrings(text);
  if (array.length > 0) return array;
  const lines = text.split(/\r?\n/)
    .map((line) => line.replace(/\*\*|__|`/g, "").trimEnd())
    .filter((line) =>
      line.trim() !== "" && !/^\s*```/.test(line) &&
      !isRefusalOrSignOff(line.replace(/^\s*(?:\d+\s*[.)]|[-*•])\s*/, ""))
    );
  const listed = lines.filter((line) => LIST_ITEM.test(line)).map((line) =>
    line.replace(/^\s*#{1,6}\s*/, "")
  );
  if (listed.length > 0) return listed;
  return lines.filter((line) =>
    !PREAMBLE.test(line.trim()) && line.trim().length <= 200 && !isSentenceToTheUser(line)
  );
}

/**
 * A line that talks rather than searches: in the first person ("I'll have
 * to pass on this one"), or a whole sentence of four words or more that
 * ends in `.`, `!` or `。` ("Happy to help with something else.", "Lo siento, no
 * puedo ayudar con eso.", "申し訳ありませんが、お手伝いできません。"). A refusal however polite is such lines only, so
 * it holds no query; a query ends in no full stop.
 */
function isSentenceToTheUser(line: string): boolean {
  const text = line.trim();
  if (/\b(?:I|I'm|I'll|I'd|I've|me|my|we|we're|us|our)\b/.test(text)) return true;
  // Scripts without spaces between words count characters: a sentence of ten or more.
  return /[.!。]$/.test(text) &&
    (text.split(/\s+/).length >= 4 || !/\s/.test(text) && text.length >= 10);
}

/** A JSON array of strings, or a Python list of them (`['rrf', 'rank fusion']`). */
function jsonArrayOfStrings(text: string): string[] {
  const match = /\[\s*["'][\s\S]*["']\s*\]/.exec(text);
  if (!match) return [];
  try {
    const parsed: unknown = JSON.parse(relaxedJson(match[0]));
    return Array.isArray(parsed) ? parsed.filter((item) => typeof item === "string") : [];
  } catch {
    return [];
  }
}

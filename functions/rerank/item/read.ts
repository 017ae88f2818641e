import { z } from "zod";
import { extractJsonObject } from "../../../shared/llm/json.ts";
import { completeRanking, keepValid, readRanking, readSelection } from "./identifiers.ts";

/*
 * Each step's reply read in either output mode. A provider may ignore the
 * requested format, so a reply is tried as JSON first and then as text; what
 * is kept follows the same rules both ways (see `identifiers.ts`).
 * `undefined` always means "nothing usable": the step keeps its previous state.
 */

/** A pseudo-answer longer than this is cut: it only has to guide the next judgment. */
const ANSWER_CHARS = 2_000;

export const answerReplySchema = z.object({ answer: z.string() });
export const rankingReplySchema = z.object({ ranking: z.array(z.number().int()) });
export const selectionReplySchema = z.object({ useful: z.array(z.number().int()) });
export const verdictReplySchema = z.object({ useful: z.boolean() });

function json<T>(schema: z.ZodType<T>, reply: string): T | undefined {
  const parsed = schema.safeParse(extractJsonObject(reply));
  return parsed.success ? parsed.data : undefined;
}

/** The pseudo-answer: `{"answer"}` or the reply's text, trimmed; `undefined` when empty. */
export function readAnswer(reply: string): string | undefined {
  const text = (json(answerReplySchema, reply)?.answer ?? reply).trim();
  return text ? text.slice(0, ANSWER_CHARS) : undefined;
}

/** A whole ranking as 0-based presentation positions (passages left out appended). */
export function readRankingReply(reply: string, count: number): number[] | undefined {
  const object = json(z.object({ ranking: z.array(z.unknown()) }), reply);
  const fromJson = object ? completeRanking(keepValid(object.ranking, count), count) : undefined;
  return fromJson ?? readRanking(reply, count);
}

/** A utility set as 0-based presentation positions, in the order written; `[]` for none. */
export function readSelectionReply(reply: string, count: number): number[] | undefined {
  const object = json(z.object({ useful: z.array(z.unknown()) }), reply);
  if (object) {
    const named = keepValid(object.useful, count);
    // `{"useful": []}` is an explicit none; a list of only bad numbers names nothing usable.
    if (named.length > 0 || object.useful.length === 0) return named.map((id) => id - 1);
  }
  return readSelection(reply, count);
}

const YES_NO = String.raw`(yes|no|true|false|useful|not\s+useful)`;
/** `Useful: yes`, ITEM's own `My judgment: Yes, ...`, `Verdict - No`, `Answer: not useful`. */
const LABELLED = new RegExp(
  String.raw`(?:useful|utility|judge?ment|verdict|answer|decision)\s*[:\-–]\s*${YES_NO}\b`,
  "gi",
);
/** Prose: "the passage is useful", "is not useful", "isn't useful", "has no utility". */
const PROSE =
  /\b(?:is|are|seems?|appears?)\s+(not\s+|n't\s+)?(?:very\s+|quite\s+)?useful\b|\bisn't\s+useful\b|\bhas\s+(no|some|high|clear)\s+utility\b/gi;

function yes(word: string): boolean {
  return /^(?:yes|true|useful)$/i.test(word.trim());
}

/**
 * Pointwise: `{"useful": true}` (or `"yes"`), a labelled line (`Useful:
 * yes`, ITEM's `My judgment: Yes, ...`), a reply that starts with yes or
 * no, else the one thing prose says ("the passage is not useful"). Labels
 * or prose that say both are unreadable, as is "yes and no".
 */
export function readVerdict(reply: string): boolean | undefined {
  const object = json(z.object({ useful: z.union([z.boolean(), z.string()]) }), reply);
  if (object) {
    if (typeof object.useful === "boolean") return object.useful;
    if (/^\s*(?:yes|no|true|false)\s*$/i.test(object.useful)) return yes(object.useful);
  }
  const text = reply.replace(/[*_`]/g, "");
  const labelled = new Set([...text.matchAll(LABELLED)].map((match) => yes(match[1]!)));
  if (labelled.size > 0) return labelled.size === 1 ? [...labelled][0] : undefined;
  const leading = /^\W*(yes|no)\b(?!\s+(?:and|or)\s+(?:yes|no)\b)/i.exec(text.trim());
  if (leading) return yes(leading[1]!);
  const prose = new Set(
    [...text.matchAll(PROSE)].map((match) =>
      match[0].toLowerCase().includes("isn't")
        ? false
        : match[2] !== undefined
        ? match[2].toLowerCase() !== "no"
        : match[1] === undefined
    ),
  );
  return prose.size === 1 ? [...prose][0] : undefined;
}

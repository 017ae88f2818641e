import { z } from "zod";
import {
  isRefusal,
  lastRevisionAt,
  normalizeReply,
  withoutQuotedText,
} from "../../../shared/llm/reply-text.ts";
import { extractJsonObject } from "../../../shared/llm/json.ts";
import { setReasoningAside } from "../../../shared/llm/reasoning.ts";
import { revisionsIn } from "../../../shared/llm/revisions.ts";
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
  const parsed = schema.safeParse(extractJsonObject(normalizeReply(reply)));
  return parsed.success ? parsed.data : undefined;
}

/** The pseudo-answer: `{"answer"}` or the reply's text, trimmed; `undefined` when empty. */
export function readAnswer(reply: string): string | undefined {
  const text = (json(answerReplySchema, reply)?.answer ?? setReasoningAside(reply).answer).trim();
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

/** A conclusion that settles the matter: "…, so no.", "Therefore: yes", "Final answer: no". */
const CONCLUSION =
  /(?:\b(?:so|thus|hence|therefore|overall|in\s+the\s+end|final(?:ly)?(?:\s+(?:answer|judge?ment|verdict))?)\s*[,:\-–]?\s*(?:my\s+(?:answer|judge?ment)\s+is\s+)?|\bthe\s+answer\s+is\s+)(yes|no)\b[\s.!]*$/gim;

/**
 * Pointwise: `{"useful": true}` (or `"yes"`), a labelled line (`Useful:
 * yes`, ITEM's `My judgment: Yes, ...`), a reply that starts with yes or
 * no, else the one thing prose says ("the passage is not useful"). Labels
 * or prose that say both are unreadable, as is "yes and no" — unless the
 * reply ends on a conclusion ("…, so no.") or revises itself ("on
 * reflection: no"): the last stated verdict wins. Refusals are none.
 */
export function readVerdict(reply: string): boolean | undefined {
  return readVerdictRevised(reply)?.useful;
}

/** `readVerdict`, saying also whether the reply changed its verdict on the way. */
export function readVerdictRevised(
  reply: string,
): { useful: boolean; revised: boolean } | undefined {
  const normalized = normalizeReply(reply);
  if (isRefusal(normalized)) return undefined;
  const object = json(z.object({ useful: z.union([z.boolean(), z.string()]) }), normalized);
  const once = (useful: boolean | undefined) =>
    useful === undefined ? undefined : { useful, revised: false };
  if (object) {
    if (typeof object.useful === "boolean") return once(object.useful);
    if (/^\s*(?:yes|no|true|false)\s*$/i.test(object.useful)) return once(yes(object.useful));
  }
  const text = withoutQuotedText(normalized).replace(/[*_`"]/g, "");
  const stated = [...text.matchAll(LABELLED)].map((match) => ({
    at: match.index,
    useful: yes(match[1]!),
  }));
  const conclusions = [
    ...[...text.matchAll(CONCLUSION)].map((match) => ({ at: match.index, useful: yes(match[1]!) })),
    // "…so I'll change that to yes": a revision in prose is a conclusion too.
    ...revisionsIn(text, ["useful", "judge?ment", "verdict", "answer"], true)
      .filter((revision) => /^(?:yes|no)$/i.test(revision.value))
      .map((revision) => ({ at: revision.at, useful: yes(revision.value) })),
  ];
  const revisedAt = lastRevisionAt(text);
  const last = [...stated, ...conclusions].sort((x, y) => x.at - y.at).at(-1);
  if (conclusions.length > 0 || (revisedAt !== -1 && last && last.at > revisedAt)) {
    const all = new Set([...stated, ...conclusions].map((found) => found.useful));
    return last ? { useful: last.useful, revised: all.size > 1 } : undefined;
  }
  const labelled = new Set(stated.map((found) => found.useful));
  if (labelled.size > 0) return labelled.size === 1 ? once([...labelled][0]) : undefined;
  const leading = /^\W*(yes|no)\b(?!\s+(?:and|or)\s+(?:yes|no)\b)/i.exec(text.trim());
  if (leading) return once(yes(leading[1]!));
  const prose = new Set(
    [...text.matchAll(PROSE)].map((match) =>
      match[0].toLowerCase().includes("isn't")
        ? false
        : match[2] !== undefined
        ? match[2].toLowerCase() !== "no"
        : match[1] === undefined
    ),
  );
  return prose.size === 1 ? once([...prose][0]) : undefined;
}

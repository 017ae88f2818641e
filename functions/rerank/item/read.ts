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

/** Pointwise: `{"useful": true}`, `Useful: yes`, or a reply that starts with yes or no. */
export function readVerdict(reply: string): boolean | undefined {
  const object = json(z.object({ useful: z.boolean() }), reply);
  if (object) return object.useful;
  const labelled = /useful\s*:\s*\**\s*(yes|no)\b/i.exec(reply)?.[1];
  const leading = /^\W*(yes|no)\b/i.exec(reply.trim())?.[1];
  const word = (labelled ?? leading)?.toLowerCase();
  return word === undefined ? undefined : word === "yes";
}

import type { z } from "zod";
import { extractJsonObject } from "../../shared/llm/json.ts";
import type { ScoreScale } from "../../shared/llm/read-score.ts";
import type { Verdict } from "../../shared/judge/types.ts";

/**
 * Reading the judges' replies defensively: models write prose around their
 * answer, repeat the format in their reasoning, and bold or quote numbers.
 * Every parser here returns `undefined` rather than guess.
 */

/** RAGElo's retrieval grade as models write it: `2`, `**Relevance:** 2`, `very relevant`. */
export const RETRIEVAL_SCALE: ScoreScale = {
  max: 2,
  integer: true,
  labels: ["relevance", "relevancy", "grade"],
  words: [
    [/^(?:very|highly|fully|completely)\s+relevant$/i, 2],
    [/^(?:somewhat|partially|partly|moderately)\s+relevant$/i, 1],
    [/^(?:not\s+(?:at\s+all\s+)?relevant|irrelevant)$/i, 0],
  ],
};

/** The pointwise answer judge's four scores, each a whole 0-2. */
export const ANSWER_SCALE: ScoreScale = { max: 2, integer: true };

/** A whole number in 0..max (`2`, `"2"`, `2.0`); anything else is not a grade. */
export function parseGrade(value: unknown, max: number): number | undefined {
  const number = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  return typeof number === "number" && Number.isInteger(number) && number >= 0 && number <= max
    ? number
    : undefined;
}

/** A number rounded and clamped into 0..max; `undefined` when it is not a finite number. */
export function clampGrade(value: unknown, max: number): number | undefined {
  const number = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  if (typeof number !== "number" || !Number.isFinite(number)) return undefined;
  return Math.min(max, Math.max(0, Math.round(number)));
}

const SCORE_LINE =
  /^[\s>*_#`-]*(?:[a-z]+\s+)?score\s*[*_`]*\s*[:=][\s*_`"']*(\d+(?:\.\d+)?)(?:\s*\/\s*(\d+))?[*_`"'.)]*\s*$/i;

/** The text without its score lines: the model's reason. */
export function withoutScoreLines(text: string): string {
  return text.split(/\r?\n/).filter((line) => !SCORE_LINE.test(line)).join("\n")
    .replace(/^\s*(?:reason(?:ing)?|explanation)\s*:\s*/i, "").trim();
}

const VERDICT_TOKEN = /\[\[\s*([ABC])\s*\]\]/gi;

/**
 * The last `[[A]]`, `[[B]]` or `[[C]]` in a reply: judges often quote the
 * format ("[[A]] if A is better") or name a letter while reasoning before
 * they give the verdict, which comes last.
 */
export function parseVerdictToken(text: string): Verdict | undefined {
  const last = [...text.matchAll(VERDICT_TOKEN)].at(-1)?.[1];
  return last ? (last.toUpperCase() as Verdict) : undefined;
}

/** A structured verdict: `"A"`, `"b"`, `"[[C]]"` or `"Assistant A"`; anything else is none. */
export function parseVerdictValue(value: unknown): Verdict | undefined {
  if (typeof value !== "string") return undefined;
  const match = /^\W*(?:assistant\s+)?([ABC])\W*$/i.exec(value.trim());
  return match ? (match[1]!.toUpperCase() as Verdict) : undefined;
}

/** A verdict with the answers swapped, in terms of the original A and B. */
export function swapVerdict(verdict: Verdict): Verdict {
  return verdict === "A" ? "B" : verdict === "B" ? "A" : "C";
}

const MAX_JSON_ATTEMPTS = 64;

/**
 * The last JSON object in the text that fits `schema`, and where it starts.
 * Scans from the last `{` backwards, so a final-line object wins over
 * examples or drafts earlier in the reasoning, and an object nested inside
 * a bigger one that fits is tried before it.
 */
export function lastJsonObject<T>(
  text: string,
  schema: z.ZodType<T>,
): { value: T; start: number } | undefined {
  let attempts = 0;
  for (
    let start = text.lastIndexOf("{");
    start !== -1 && attempts < MAX_JSON_ATTEMPTS;
    start = start === 0 ? -1 : text.lastIndexOf("{", start - 1), attempts++
  ) {
    const parsed = schema.safeParse(extractJsonObject(text.slice(start)));
    if (parsed.success) return { value: parsed.data, start };
  }
  return undefined;
}

import type { AnswerScores } from "../../shared/judge/types.ts";
import { revisionsIn } from "../../shared/llm/revisions.ts";
import { parseGrade } from "./parse.ts";

const KEYS = ["relevance", "accuracy", "completeness", "precision"] as const;

/**
 * The answer judge's scores after what the reply commits to once it stated
 * them: a note after the JSON or the labelled lines that names a key
 * ("accuracy should be 1", "I'd lower completeness to 0") changes that key,
 * the last such value winning; a conditional one ("…completeness would be
 * 2") changes nothing. A revised value off 0-2 leaves no scores (never
 * clamped). Only text after `from` and after the key's last labelled line counts.
 *
 * @example
 * reviseScores("Accuracy: 2\nOn reflection accuracy should be 1.", { relevance: 2, accuracy: 2, completeness: 2, precision: 2 }, 0);
 * // { scores: { …, accuracy: 1 }, revised: true }
 */
export function reviseScores(
  text: string,
  stated: AnswerScores,
  from: number,
): { scores: AnswerScores; revised: boolean } | undefined {
  const scores = { ...stated };
  let revised = false;
  for (const key of KEYS) {
    const labelled = [...text.matchAll(new RegExp(String.raw`\b${key}\b[^\n:=]{0,24}[:=]`, "gi"))];
    const after = Math.max(from, labelled.at(-1)?.index ?? 0);
    const last = revisionsIn(text, [key], false).filter((found) => found.at > after).at(-1);
    if (!last) continue;
    const value = last.over === undefined && !last.percent
      ? parseGrade(last.value, 2)
      : parseGrade((Number(last.value) / (last.percent ? 100 : Number(last.over))) * 2, 2);
    if (value === undefined) return undefined;
    revised ||= value !== scores[key];
    scores[key] = value as AnswerScores[typeof key];
  }
  return { scores, revised };
}

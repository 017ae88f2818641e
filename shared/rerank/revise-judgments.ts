import { revisionsIn } from "../llm/revisions.ts";
import { RELEVANCE_MAX } from "./rubric.ts";
import type { Judgment } from "./types.ts";

/** A score token as the line reader knows it, from a revision's parts. */
const token = (revision: { value: string; over: string | undefined; percent: boolean }) =>
  `${revision.value}${revision.over ? `/${revision.over}` : ""}${revision.percent ? "%" : ""}`;

/**
 * Judgments after what the reply commits to in prose once its lines are
 * written: "On reflection, Doc 2 deserves a 3, not a 6", "I'd lower Doc 4
 * to 2" give that document's final score (and its relevance when the
 * reply gives no breakdown), `revised`; a conditional one ("for a user on
 * Ubuntu, Doc 1 would be a 7") changes nothing. Only documents already read
 * are revised, and only to a value on the 0-10 scale.
 *
 * @example
 * reviseJudgments("Doc: 2, Relevance: 6\nDoc 2 deserves a 3.", [{ position: 1, relevance: 6, criteria: {}, statedFinal: 6 }], 0);
 */
export function reviseJudgments(
  text: string,
  judgments: readonly Judgment[],
  criteriaCount: number,
): Judgment[] {
  return judgments.map((judgment) => {
    if (judgment.unreadable || judgment.dropped) return judgment;
    const doc = judgment.position + 1;
    const last = revisionsIn(text, [`Doc ${doc}`], false).at(-1);
    if (!last) return judgment;
    const value = parseRevised(token(last));
    if (value === undefined) return judgment;
    const final = judgment.statedFinal ?? judgment.relevance;
    if (final === value) return judgment;
    return {
      ...judgment,
      statedFinal: value,
      ...(criteriaCount === 0 || Object.keys(judgment.criteria).length === 0
        ? { relevance: value }
        : {}),
      revised: true,
    };
  });
}

function parseRevised(written: string): number | undefined {
  const scaled = /^(\d+(?:[.,]\d+)?)(?:\/(\d+(?:\.\d+)?)|(%))?$/.exec(written);
  if (!scaled) return undefined;
  let value = Number(scaled[1]!.replace(",", "."));
  if (scaled[3]) value = (value / 100) * RELEVANCE_MAX;
  else if (scaled[2]) value = (value / Number(scaled[2])) * RELEVANCE_MAX;
  return value >= 0 && value <= RELEVANCE_MAX ? Math.round(value * 1e9) / 1e9 : undefined;
}

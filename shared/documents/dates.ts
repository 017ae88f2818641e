/** How far ahead of the clock a document's date may be: time zones and clock skew, no more. */
export const FUTURE_DATE_SLACK_MS = 24 * 3600 * 1000;

/**
 * The metadata fields that carry a document's date: what the rerank prompt
 * shows (`published`) and the names callers commonly use for it.
 */
export const DATE_FIELDS = ["published", "date", "updated", "modified"] as const;

/** The latest moment a date-like string can mean: a parsed date, or the start of its latest year. */
function latestMoment(value: string): number | undefined {
  const parsed = Date.parse(value);
  if (Number.isFinite(parsed)) return parsed;
  const years = [...value.matchAll(/\b(\d{4})\b/g)].map((match) => Number(match[1]));
  if (years.length === 0) return undefined;
  return Date.UTC(Math.max(...years), 0, 1);
}

/**
 * The reason a date-like value lies more than a day in the future, or
 * undefined. A claimed date of 2099 would otherwise win every recency
 * judgment: metadata is evidence, not authority.
 *
 * @example
 * futureDateProblem("2099-01-01", Date.UTC(2026, 0, 1)); // "must not be more than a day in the future"
 * futureDateProblem("2019-05-24", Date.UTC(2026, 0, 1)); // undefined
 */
export function futureDateProblem(value: unknown, now: number): string | undefined {
  // A bare number is a year when it looks like one; other numbers are no date sift can read.
  const at = typeof value === "string"
    ? latestMoment(value)
    : typeof value === "number" && Number.isInteger(value) && value >= 1000 && value <= 9999
    ? Date.UTC(value, 0, 1)
    : undefined;
  if (at === undefined || at <= now + FUTURE_DATE_SLACK_MS) return undefined;
  return "must not be more than a day in the future";
}

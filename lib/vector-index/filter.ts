import type { FilterCondition, MetadataFilter } from "./types.ts";

function compare(actual: unknown, condition: FilterCondition): boolean {
  if (Array.isArray(actual)) return actual.some((item) => compare(item, condition));
  if (typeof condition !== "object") return actual === condition;
  const { eq, ne, gt, gte, lt, lte, in: oneOf } = condition;
  if (eq !== undefined && actual !== eq) return false;
  if (ne !== undefined && actual === ne) return false;
  if (oneOf !== undefined && !oneOf.includes(actual as string | number)) return false;
  if (gt === undefined && gte === undefined && lt === undefined && lte === undefined) return true;
  if (typeof actual !== "string" && typeof actual !== "number") return false;
  if (gt !== undefined && !(actual > gt)) return false;
  if (gte !== undefined && !(actual >= gte)) return false;
  if (lt !== undefined && !(actual < lt)) return false;
  if (lte !== undefined && !(actual <= lte)) return false;
  return true;
}

/**
 * True when metadata satisfies every condition of the filter (AND).
 * A list-valued field matches when any element does. Only the metadata's own
 * properties count: a filter on `constructor` must not find Object's.
 *
 * @example
 * matchesFilter({ year: 2020 }, { year: { gte: 2019 } }); // true
 */
export function matchesFilter(
  metadata: Record<string, unknown>,
  filter: MetadataFilter | undefined,
): boolean {
  if (!filter) return true;
  return Object.entries(filter).every(([field, condition]) =>
    compare(Object.hasOwn(metadata, field) ? metadata[field] : undefined, condition)
  );
}

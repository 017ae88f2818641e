import { z } from "zod";
import { InvalidRequestError } from "../../../shared/errors.ts";
import type { MetadataFilter } from "../../../shared/vector/port.ts";
import { ATTRIBUTE_PREFIX } from "./attributes.ts";

/** How many AND-groups an OR may spread into: each is one search. */
export const MAX_BRANCHES = 16;
const MAX_DEPTH = 8;

type Scalar = string | number | boolean;
const scalar = z.union([z.string().max(512), z.number(), z.boolean()], {
  error: "must be a string, a number or a boolean",
});

const comparisonSchema = z.strictObject({
  type: z.enum(["eq", "ne", "gt", "gte", "lt", "lte", "in"], {
    error: "must be eq, ne, gt, gte, lt, lte or in (or and / or for a compound filter)",
  }),
  key: z.string().min(1).max(64),
  value: z.union([scalar, z.array(z.union([z.string().max(512), z.number()])).max(100)]),
});

type Comparison = z.infer<typeof comparisonSchema>;
export type Filter = Comparison | { type: "and" | "or"; filters: Filter[] };

/** OpenAI's filters: a comparison, or `and` / `or` over filters, nested at most 8 deep. */
export const filterSchema: z.ZodType<Filter> = z.lazy(() =>
  z.union([
    z.strictObject({
      type: z.enum(["and", "or"]),
      filters: z.array(filterSchema).min(1, { error: "must hold at least one filter" }).max(16),
    }),
    comparisonSchema,
  ], { error: "must be {type, key, value} or {type: and | or, filters}" })
);

/** The filter as OR of AND-groups (each a list of comparisons), or a 400 when it spreads too far. */
function branchesOf(filter: Filter, depth = 0): Comparison[][] {
  if (depth > MAX_DEPTH) throw new InvalidRequestError(`filters: nest at most ${MAX_DEPTH} deep`);
  if (filter.type !== "and" && filter.type !== "or") return [[filter as Comparison]];
  const parts = (filter as { filters: Filter[] }).filters.map((part) =>
    branchesOf(part, depth + 1)
  );
  const branches = filter.type === "or" ? parts.flat() : parts.reduce<Comparison[][]>(
    (product, part) => product.flatMap((left) => part.map((right) => [...left, ...right])),
    [[]],
  );
  if (branches.length > MAX_BRANCHES) {
    throw new InvalidRequestError(
      `filters: an or spreads into at most ${MAX_BRANCHES} and-groups (each is one search)`,
      { param: "filters" },
    );
  }
  return branches;
}

type Condition = Exclude<MetadataFilter[string], Scalar>;

/** One AND-group as sift's filter; undefined when it can match nothing (`a = 1 and a = 2`). */
function groupFilter(group: Comparison[]): MetadataFilter | undefined {
  const filter: Record<string, Condition> = {};
  for (const { type, key, value } of group) {
    const field = `${ATTRIBUTE_PREFIX}${key}`;
    const condition: Record<string, unknown> = filter[field] ?? {};
    const held = condition[type];
    if (type === "in") {
      if (!Array.isArray(value)) throw badValue(type, "an array");
      condition.in = held === undefined
        ? value
        : (held as Scalar[]).filter((item) => value.includes(item as string | number));
    } else if (Array.isArray(value)) {
      throw badValue(type, "a string, a number or a boolean");
    } else if (held === undefined) {
      condition[type] = value;
    } else if (type === "eq") {
      if (held !== value) return undefined;
    } else if (type === "ne") {
      throw new InvalidRequestError(`filters: two ne comparisons on "${key}" in one and-group`, {
        param: "filters",
      });
    } else {
      // The stricter bound of two on one side.
      const stricter = type.startsWith("g") ? value > held! : value < held!;
      if (stricter) condition[type] = value;
    }
    filter[field] = condition as Condition;
  }
  return filter;
}

function badValue(type: string, wanted: string): InvalidRequestError {
  return new InvalidRequestError(`filters: ${type} takes ${wanted} as its value`, {
    param: "filters",
  });
}

/**
 * OpenAI's attribute filters as sift's metadata filters, one per AND-group
 * of the filter's OR: each group is one search and the results are merged,
 * which is exact for any mix of `and` and `or`. No filter is one group
 * with no conditions.
 *
 * @example
 * siftFilters({ type: "or", filters: [
 *   { type: "eq", key: "team", value: "a" }, { type: "gte", key: "year", value: 2024 },
 * ] }); // [{attr_team: {eq: "a"}}, {attr_year: {gte: 2024}}]
 */
export function siftFilters(filter: Filter | undefined): MetadataFilter[] {
  if (!filter) return [{}];
  return branchesOf(filter).map(groupFilter).filter((group) => group !== undefined);
}

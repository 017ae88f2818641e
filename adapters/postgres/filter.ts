import { InvalidRequestError } from "../../shared/errors.ts";
import type { FilterCondition, MetadataFilter } from "../../shared/vector/port.ts";

/** A metadata filter as one SQL/JSON path predicate and the values it names. */
export type JsonPathFilter = { path: string; vars: Record<string, unknown> };

const RANGES = { gt: ">", gte: ">=", lt: "<", lte: "<=" } as const;

/**
 * The port's filter as a `jsonb_path_match(metadata, path, vars)` predicate,
 * with the meaning `matchesFilter` gives it in the embedded index: conditions
 * AND-ed, a list-valued field matching when any element does (lax mode walks
 * arrays), a missing field failing every condition but `ne`. Values travel in
 * `vars`, field names as quoted keys, so no input can change the path.
 *
 * @example
 * toJsonPathFilter({ doc_id: "bert", published: { gte: "2019-01-01" } });
 * // { path: 'exists($."doc_id" ? (@ == $v0)) && exists($."published" ? (@ >= $v1))', vars: {...} }
 */
export function toJsonPathFilter(filter: MetadataFilter | undefined): JsonPathFilter | undefined {
  if (!filter || Object.keys(filter).length === 0) return undefined;
  const vars: Record<string, unknown> = {};
  const bind = (field: string, value: unknown): string => {
    if (
      typeof value !== "string" && typeof value !== "boolean" &&
      !(typeof value === "number" && Number.isFinite(value))
    ) {
      throw new InvalidRequestError(
        `filter.${field}: values must be strings, finite numbers or booleans`,
      );
    }
    const name = `v${Object.keys(vars).length}`;
    vars[name] = value;
    return `$${name}`;
  };
  const clauses = Object.entries(filter).map(([field, condition]) =>
    fieldClause(field, condition, bind)
  );
  return { path: clauses.join(" && "), vars };
}

function fieldClause(
  field: string,
  condition: FilterCondition,
  bind: (field: string, value: unknown) => string,
): string {
  const key = `$.${JSON.stringify(field)}`;
  if (typeof condition !== "object" || condition === null) {
    return `exists(${key} ? (@ == ${bind(field, condition)}))`;
  }
  const tests: string[] = [];
  const { eq, ne, in: oneOf } = condition;
  if (eq !== undefined) tests.push(`@ == ${bind(field, eq)}`);
  if (ne !== undefined) tests.push(`@ != ${bind(field, ne)}`);
  if (oneOf !== undefined) {
    if (!Array.isArray(oneOf)) throw new InvalidRequestError(`filter.${field}.in: must be a list`);
    tests.push(
      oneOf.length === 0
        ? "1 == 2" // no value to match: nothing does
        : `(${oneOf.map((value) => `@ == ${bind(field, value)}`).join(" || ")})`,
    );
  }
  for (const [operator, symbol] of Object.entries(RANGES)) {
    const bound = condition[operator as keyof typeof RANGES];
    if (bound !== undefined) tests.push(`@ ${symbol} ${bind(field, bound)}`);
  }
  // No condition at all holds for every chunk, as in `matchesFilter`.
  if (tests.length === 0) return "1 == 1";
  const some = `exists(${key} ? (${tests.join(" && ")}))`;
  // `ne` alone holds for a missing field, as `undefined !== value` does.
  const onlyNe = ne !== undefined && tests.length === 1;
  return onlyNe ? `(!exists(${key}) || ${some})` : some;
}

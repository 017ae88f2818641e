import { InvalidRequestError } from "../../shared/errors.ts";
import type { FilterCondition, MetadataFilter } from "../../shared/vector/port.ts";

const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const COMPARISONS = {
  eq: "=",
  ne: "!=",
  gt: ">",
  gte: ">=",
  lt: "<",
  lte: "<=",
} as const;

/**
 * The port's filter as an Upstash filter string, or undefined for no filter.
 * Conditions are AND-ed; values are literals, never spliced raw, and field
 * names must be plain identifiers, so no input can change the expression.
 *
 * Upstash documents `<`, `<=`, `>`, `>=` for number values; a string operand
 * (an ISO date) is sent as asked and its outcome is the service's.
 *
 * @example
 * toUpstashFilter({ doc_id: "bert", published: { gte: "2019-01-01" } });
 * // "doc_id = 'bert' AND published >= '2019-01-01'"
 */
export function toUpstashFilter(
  filter: MetadataFilter | undefined,
): string | undefined {
  if (!filter) return undefined;
  const clauses: string[] = [];
  for (const [field, condition] of Object.entries(filter)) {
    if (!FIELD_NAME.test(field)) {
      throw new InvalidRequestError(
        `filter: field ${
          JSON.stringify(field)
        } must be letters, digits and "_", not starting with a digit`,
      );
    }
    clauses.push(...fieldClauses(field, condition));
  }
  return clauses.length === 0 ? undefined : clauses.join(" AND ");
}

function fieldClauses(field: string, condition: FilterCondition): string[] {
  if (typeof condition !== "object" || condition === null) {
    return [`${field} = ${filterLiteral(field, condition)}`];
  }
  const clauses: string[] = [];
  for (const [operator, operand] of Object.entries(condition)) {
    if (operand === undefined) continue;
    if (operator === "in") {
      if (!Array.isArray(operand) || operand.length === 0) {
        throw new InvalidRequestError(
          `filter.${field}.in: must list at least one value`,
        );
      }
      const values = operand.map((value) => filterLiteral(field, value));
      clauses.push(`${field} IN (${values.join(", ")})`);
      continue;
    }
    if (!Object.hasOwn(COMPARISONS, operator)) {
      throw new InvalidRequestError(
        `filter.${field}: unknown operator ${JSON.stringify(operator)}`,
      );
    }
    const symbol = COMPARISONS[operator as keyof typeof COMPARISONS];
    clauses.push(`${field} ${symbol} ${filterLiteral(field, operand)}`);
  }
  if (clauses.length === 0) {
    throw new InvalidRequestError(
      `filter.${field}: needs one of eq, ne, gt, gte, lt, lte, in`,
    );
  }
  return clauses;
}

function filterLiteral(field: string, value: unknown): string {
  if (typeof value === "string") return upstashStringLiteral(value);
  if (typeof value === "boolean") return String(value);
  if (typeof value === "number" && Number.isFinite(value)) {
    // Plain decimals only: the filter grammar has no exponent notation.
    return value.toLocaleString("en-US", {
      useGrouping: false,
      maximumFractionDigits: 100,
    });
  }
  throw new InvalidRequestError(
    `filter.${field}: values must be strings, finite numbers or booleans`,
  );
}

/** A single-quoted Upstash filter literal; backslash escapes `\\` and `'`. */
function upstashStringLiteral(value: string): string {
  return `'${value.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;
}

import { DEFAULT_PRICES, type ModelPrice } from "./prices.ts";

/**
 * Tokens in and out of one model call: the shape of `llm/chat.ts`'s
 * `TokenUsage`, written here so config can read prices without importing
 * the LLM client (which imports config).
 */
type TokenUsage = { tokens_in: number; tokens_out: number };

/** A step's cost in USD: `null` when its model has no known price. */
export type CostUsd = number | null;

/** The price table in force: the defaults with `MODEL_PRICES` over them. */
export function priceTable(
  overrides: Readonly<Record<string, ModelPrice>> = {},
): Readonly<Record<string, ModelPrice>> {
  return { ...DEFAULT_PRICES, ...overrides };
}

/**
 * What `usage` cost on `model`, in USD, rounded to a millionth of a cent.
 * A call with no tokens cost nothing, whatever the model.
 *
 * @example
 * costOf("gpt-4o-mini", { tokens_in: 1_000_000, tokens_out: 0 }, priceTable()); // 0.15
 */
export function costOf(
  model: string,
  usage: TokenUsage,
  prices: Readonly<Record<string, ModelPrice>>,
): CostUsd {
  if (usage.tokens_in === 0 && usage.tokens_out === 0) return 0;
  const price = prices[model];
  if (!price) return null;
  const usd = (usage.tokens_in * price.input + usage.tokens_out * price.output) / 1e6;
  return Math.round(usd * 1e8) / 1e8;
}

/** The sum of the steps' costs; `null` when any one is unknown. */
export function totalCost(costs: readonly CostUsd[]): CostUsd {
  let total = 0;
  for (const cost of costs) {
    if (cost === null) return null;
    total += cost;
  }
  return Math.round(total * 1e8) / 1e8;
}

import type { Config } from "../config.ts";
import type { StepRecord } from "../steps/clock.ts";
import { costOf, type CostUsd, totalCost } from "./cost.ts";

/**
 * Each step with its `cost_usd`, and the total: a step that priced itself
 * keeps its figure; the others are priced from their tokens at the answering
 * model's price (`LLM_MODEL`), `null` when that model has no known price.
 *
 * @example
 * const { steps, cost_usd } = pricedSteps(clock.steps, config);
 */
export function pricedSteps(
  steps: readonly StepRecord[],
  config: Pick<Config, "llm" | "prices">,
): { steps: (StepRecord & { cost_usd: CostUsd })[]; cost_usd: CostUsd } {
  const priced = steps.map((step) => ({
    ...step,
    cost_usd: step.cost_usd !== undefined
      ? step.cost_usd
      : costOf(config.llm.model, step, config.prices),
  }));
  return { steps: priced, cost_usd: totalCost(priced.map((step) => step.cost_usd)) };
}

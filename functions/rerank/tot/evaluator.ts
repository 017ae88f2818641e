import { z } from "zod";
import type { LlmContext } from "../../../shared/llm/client.ts";
import type { TotDimension, TotLevelKind } from "../../../shared/rerank/tot/dimensions.ts";
import { halfKeepingThresholds } from "../../../shared/rerank/tot/thresholds.ts";
import { addUsage, askRead, type TotUsage } from "./ask.ts";
import { correctionPrompt } from "../../../prompts/correction.ts";
import { parseThresholds } from "./parse.ts";
import { renderThreshold } from "./render.ts";

export type SetThresholds = {
  thresholds: Record<string, number>;
  /** Some threshold came from the fallback rule instead of the evaluator. */
  degraded: boolean;
  warnings: string[];
};

/**
 * The level's thought evaluator (paper 003 §3.3): one call sets a threshold
 * per dimension from the scores alone, aiming to keep about half or more. A
 * threshold it failed to give comes from the same rule in code
 * (`halfKeepingThresholds`), with a warning.
 */
export async function setThresholds(
  llm: LlmContext,
  input: {
    kind: TotLevelKind;
    label: string;
    dimensions: readonly TotDimension[];
    rows: readonly Readonly<Record<string, number>>[];
  },
  usage: TotUsage,
  signal: AbortSignal | undefined,
): Promise<SetThresholds> {
  const schema = z.object({
    thresholds: z.object(Object.fromEntries(input.dimensions.map((name) => [name, z.number()]))),
  });
  let given: Partial<Record<TotDimension, number>> = {};
  let problem = "the evaluator's reply was unusable, even after a correction";
  try {
    await askRead(
      llm,
      renderThreshold(input.kind, input.dimensions, input.rows, llm.structuredOutputs),
      { schema, name: "tot_thresholds" },
      signal,
      usage,
      {
        read: (text) => {
          const read = parseThresholds(text, input.dimensions);
          // A later reply's values stand; one it leaves out keeps the earlier reply's.
          given = { ...given, ...read };
          return input.dimensions.every((name) => given[name] !== undefined) ? given : undefined;
        },
        problem: correctionPrompt.noThresholds,
      },
    );
  } catch (error) {
    if (signal?.aborted) throw error;
    addUsage(usage, { tokens_in: 0, tokens_out: 0 });
    problem = "the evaluator call failed";
  }
  const missing = input.dimensions.filter((name) => given[name] === undefined);
  if (missing.length === 0) {
    return { thresholds: given as Record<string, number>, degraded: false, warnings: [] };
  }
  const fallback = halfKeepingThresholds(input.rows, input.dimensions);
  return {
    thresholds: Object.fromEntries(
      input.dimensions.map((name) => [name, given[name] ?? fallback[name] ?? 0]),
    ),
    degraded: true,
    warnings: [
      `${input.label}: ${problem}; ${missing.join(" and ")} threshold set to keep the best half`,
    ],
  };
}

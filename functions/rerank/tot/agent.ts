import { z } from "zod";
import type { LlmContext } from "../../../shared/llm/client.ts";
import {
  dimensionsOf,
  type TotDimension,
  type TotLevelKind,
} from "../../../shared/rerank/tot/dimensions.ts";
import { addUsage, askRead, type TotUsage } from "./ask.ts";
import { correctionPrompt } from "../../../prompts/correction.ts";
import type { Candidate } from "./candidates.ts";
import { parseDimensions } from "./parse.ts";
import { renderAgent } from "./render.ts";

export type DimensionPair = [TotDimension, TotDimension];

/** What a level scores on when the agent's reply is unusable. */
export const DEFAULT_DIMENSIONS: Readonly<Record<TotLevelKind, DimensionPair>> = {
  quality: ["accuracy", "completeness"],
  similarity: ["semantic", "lexical"],
};

export type ChosenDimensions = {
  dimensions: DimensionPair;
  /** `request`: pinned; `agent`: the agent's pick; `default`: its reply was unusable. */
  chosen_by: "request" | "agent" | "default";
  warnings: string[];
};

/** Two distinct dimensions: those found, completed from the default pair. */
function completed(found: readonly TotDimension[], kind: TotLevelKind): DimensionPair {
  const [first, second] = [...new Set([...found, ...DEFAULT_DIMENSIONS[kind]])];
  return [first!, second!];
}

/**
 * The level's two dimensions (paper 003 §3.3, "Tool Selection"): pinned by
 * the request, else the agent's pick of the two it expects to separate the
 * candidates most. A failed call or a reply naming fewer than two of the
 * level's dimensions is completed from the default pair, with a warning.
 */
export async function chooseDimensions(
  llm: LlmContext,
  input: {
    kind: TotLevelKind;
    label: string;
    query: string;
    candidates: readonly Candidate[];
    pinned: DimensionPair | undefined;
  },
  usage: TotUsage,
  signal: AbortSignal | undefined,
): Promise<ChosenDimensions> {
  if (input.pinned) return { dimensions: input.pinned, chosen_by: "request", warnings: [] };
  const pool = dimensionsOf(input.kind) as [TotDimension, ...TotDimension[]];
  let found: TotDimension[] = [];
  let problem = "the agent's reply named no two of its dimensions, even after a correction";
  try {
    found = await askRead(
      llm,
      renderAgent(input.kind, input.query, input.candidates, llm.structuredOutputs),
      { schema: z.object({ dimensions: z.array(z.enum(pool)) }), name: "tot_dimensions" },
      signal,
      usage,
      {
        read: (text) => {
          const named = parseDimensions(text, pool);
          if (named.length > found.length) found = named;
          return named.length === 2 ? named : undefined;
        },
        problem: correctionPrompt.noDimensions,
      },
    ) ?? found;
  } catch (error) {
    if (signal?.aborted) throw error;
    addUsage(usage, { tokens_in: 0, tokens_out: 0 });
    problem = "the agent call failed";
  }
  if (found.length === 2) {
    return { dimensions: [found[0]!, found[1]!], chosen_by: "agent", warnings: [] };
  }
  const dimensions = completed(found, input.kind);
  return {
    dimensions,
    chosen_by: "default",
    warnings: [`${input.label}: ${problem}; scored on ${dimensions.join(" and ")}`],
  };
}

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
import { readDimensions } from "./parse.ts";
import { renderAgent } from "./render.ts";

/**
 * What a level scores on when the agent's reply is unusable: the first
 * `dimensions_per_level` of this order (the default pair first, then the
 * rest in the paper's order), after any the reply did name.
 */
export const DEFAULT_DIMENSIONS: Readonly<Record<TotLevelKind, readonly TotDimension[]>> = {
  quality: ["accuracy", "completeness", "fluency", "conciseness", "novelty"],
  similarity: ["semantic", "lexical", "pragmatic", "structural", "stylistic"],
};

export type ChosenDimensions = {
  dimensions: TotDimension[];
  /** `request`: pinned; `agent`: the agent's pick; `default`: its reply was unusable. */
  chosen_by: "request" | "agent" | "default";
  warnings: string[];
};

/** `count` distinct dimensions: those found, completed from the default order. */
function completed(
  found: readonly TotDimension[],
  kind: TotLevelKind,
  count: number,
): TotDimension[] {
  return [...new Set([...found, ...DEFAULT_DIMENSIONS[kind]])].slice(0, count);
}

/**
 * The level's `count` dimensions (paper 003 §3.3, "Tool Selection"): pinned
 * by the request, else the agent's pick of those it expects to separate the
 * candidates most. A reply naming more is cut to the first `count`, with a
 * warning; a failed call or a reply naming fewer, even after a correction
 * turn, is completed from the default order, with a warning (the level is
 * then degraded).
 */
export async function chooseDimensions(
  llm: LlmContext,
  input: {
    kind: TotLevelKind;
    label: string;
    query: string;
    candidates: readonly Candidate[];
    pinned: readonly TotDimension[] | undefined;
    count: number;
  },
  usage: TotUsage,
  signal: AbortSignal | undefined,
): Promise<ChosenDimensions> {
  if (input.pinned) return { dimensions: [...input.pinned], chosen_by: "request", warnings: [] };
  const { count } = input;
  const pool = dimensionsOf(input.kind) as [TotDimension, ...TotDimension[]];
  let found: TotDimension[] = [];
  let more: TotDimension[] = [];
  let problem = `the agent's reply named fewer than ${count} of its dimensions, ` +
    "even after a correction";
  try {
    found = await askRead(
      llm,
      renderAgent(input.kind, input.query, input.candidates, llm.structuredOutputs, count),
      { schema: z.object({ dimensions: z.array(z.enum(pool)) }), name: "tot_dimensions" },
      signal,
      usage,
      {
        read: (text) => {
          const read = readDimensions(text, pool, count);
          if (read.dimensions.length > found.length) {
            found = read.dimensions;
            more = read.more;
          }
          return read.dimensions.length === count ? read.dimensions : undefined;
        },
        problem: correctionPrompt.noDimensions,
      },
    ) ?? found;
  } catch (error) {
    if (signal?.aborted) throw error;
    addUsage(usage, { tokens_in: 0, tokens_out: 0 });
    problem = "the agent call failed";
  }
  if (found.length === count) {
    const warnings = more.length > 0
      ? [
        `${input.label}: the agent named ${count + more.length} dimensions; the first ${count} ` +
        `were used (${more.join(", ")} left out)`,
      ]
      : [];
    return { dimensions: found, chosen_by: "agent", warnings };
  }
  const dimensions = completed(found, input.kind, count);
  return {
    dimensions,
    chosen_by: "default",
    warnings: [`${input.label}: ${problem}; scored on ${dimensions.join(", ")}`],
  };
}

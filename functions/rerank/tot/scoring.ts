import { z } from "zod";
import type { LlmContext } from "../../../shared/llm/client.ts";
import { mapSettled } from "../../../shared/concurrency.ts";
import type { TotDimension, TotLevelKind } from "../../../shared/rerank/tot/dimensions.ts";
import { addUsage, askRead, type TotUsage } from "./ask.ts";
import { correctionPrompt } from "../../../prompts/correction.ts";
import type { Candidate } from "./candidates.ts";
import { parseScore } from "./parse.ts";
import { renderScore } from "./render.ts";

export type ScoredCandidate = {
  candidate: Candidate;
  /** The readable scores; a dimension whose score was unreadable has none (never a 0). */
  scores: Record<string, number>;
  /** A score call failed or its reply held no number, even after a correction. */
  degraded: boolean;
};

const scoreSchema = z.object({ score: z.number() });

/**
 * Scores every candidate on the level's dimensions, one call per candidate
 * and dimension as the paper's tools do, at most `concurrency` in flight.
 * An unreadable reply gets one correction turn. A score still unreadable,
 * or whose call failed, is left out (no number is invented) and the
 * candidate is marked degraded: the level carries it to the end unscored.
 */
export async function scoreCandidates(
  llm: LlmContext,
  input: {
    kind: TotLevelKind;
    label: string;
    query: string;
    candidates: readonly Candidate[];
    dimensions: readonly TotDimension[];
    concurrency: number;
    models?: Readonly<Partial<Record<TotDimension, string>>> | undefined;
  },
  usage: TotUsage,
  signal: AbortSignal | undefined,
): Promise<{ scored: ScoredCandidate[]; warnings: string[]; unreadable: number }> {
  const jobs = input.candidates.flatMap((candidate) =>
    input.dimensions.map((dimension) => ({ candidate, dimension }))
  );
  const settled = await mapSettled(jobs, input.concurrency, async ({ candidate, dimension }) => {
    const rendered = renderScore(
      input.kind,
      dimension,
      input.query,
      candidate.text,
      llm.structuredOutputs,
    );
    return await askRead(
      llm,
      { ...rendered, model: input.models?.[dimension] },
      { schema: scoreSchema, name: "tot_score" },
      signal,
      usage,
      { read: parseScore, problem: correctionPrompt.noScore },
    );
  });
  const scored = input.candidates.map((candidate) => ({
    candidate,
    scores: {} as Record<string, number>,
    degraded: false,
  }));
  let failed = 0;
  settled.forEach((outcome, position) => {
    const { dimension } = jobs[position]!;
    const entry = scored[Math.floor(position / input.dimensions.length)]!;
    if (outcome.status === "rejected" && signal?.aborted) throw outcome.reason;
    if (outcome.status === "rejected") addUsage(usage, { tokens_in: 0, tokens_out: 0 });
    const score = outcome.status === "fulfilled" ? outcome.value : undefined;
    if (score === undefined) {
      failed++;
      entry.degraded = true;
      return;
    }
    entry.scores[dimension] = score;
  });
  const warnings = failed > 0
    ? [
      `${input.label}: ${failed} of ${jobs.length} scores were unusable, even after a correction; ` +
      "those candidates went on unscored, degraded",
    ]
    : [];
  return { scored, warnings, unreadable: failed };
}

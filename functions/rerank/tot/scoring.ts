import { z } from "zod";
import type { LlmContext } from "../../../shared/llm/client.ts";
import { mapSettled } from "../../../shared/concurrency.ts";
import type { TotDimension, TotLevelKind } from "../../../shared/rerank/tot/dimensions.ts";
import { addUsage, ask, type TotUsage } from "./ask.ts";
import type { Candidate } from "./candidates.ts";
import { parseScore } from "./parse.ts";
import { renderScore } from "./render.ts";

export type ScoredCandidate = {
  candidate: Candidate;
  scores: Record<string, number>;
  /** A score call failed or its reply held no number: that score counts as 0. */
  degraded: boolean;
};

const scoreSchema = z.object({ score: z.number() });

/**
 * Scores every candidate on both dimensions, one call per candidate and
 * dimension as the paper's tools do, at most `concurrency` in flight. A
 * failed or unreadable score is 0 (it gives the candidate nothing to pass
 * on), and the candidate is marked degraded.
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
  },
  usage: TotUsage,
  signal: AbortSignal | undefined,
): Promise<{ scored: ScoredCandidate[]; warnings: string[] }> {
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
    return await ask(llm, rendered, { schema: scoreSchema, name: "tot_score" }, signal);
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
    addUsage(
      usage,
      outcome.status === "fulfilled" ? outcome.value.usage : {
        tokens_in: 0,
        tokens_out: 0,
      },
    );
    const score = outcome.status === "fulfilled" ? parseScore(outcome.value.text) : undefined;
    if (score === undefined) {
      failed++;
      entry.degraded = true;
    }
    entry.scores[dimension] = score ?? 0;
  });
  const warnings = failed > 0
    ? [`${input.label}: ${failed} of ${jobs.length} scores were unusable and count as 0`]
    : [];
  return { scored, warnings };
}

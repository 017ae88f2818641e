import type { LlmContext } from "../../../shared/llm/client.ts";
import type { TotDimension, TotLevelKind } from "../../../shared/rerank/tot/dimensions.ts";
import { bestHalf } from "../../../shared/rerank/tot/thresholds.ts";
import { chooseDimensions } from "./agent.ts";
import type { TotUsage } from "./ask.ts";
import type { Candidate } from "./candidates.ts";
import { setThresholds } from "./evaluator.ts";
import { scoreCandidates, type ScoredCandidate } from "./scoring.ts";

/** One level of the response's `tree`: exactly the candidates that reached it. */
export type TotLevel = {
  kind: TotLevelKind;
  dimensions: TotDimension[];
  chosen_by: "request" | "agent" | "default";
  thresholds: Record<string, number>;
  candidates: {
    index: number;
    scores: Record<string, number>;
    kept: boolean;
    degraded?: true;
  }[];
  /** No candidate met every threshold (the best half by mean went on), or a reply was unusable. */
  degraded?: true;
};

export type LevelOutcome = {
  level: TotLevel;
  /** Those that go on, in retrieval order, with their scores at this level. */
  kept: ScoredCandidate[];
  /**
   * Those with an unreadable score at this level (after a correction): not
   * screened on a made-up number, set aside to follow the ranked ones, degraded.
   */
  unscored: ScoredCandidate[];
  /** Score replies left unreadable after their correction turn, for the degraded share. */
  unreadable: number;
  /** Why each dropped candidate was dropped, by candidate index. */
  dropped: Map<number, string>;
  warnings: string[];
};

const meets = (scores: Record<string, number>, thresholds: Record<string, number>) =>
  Object.entries(thresholds).every(([name, threshold]) => (scores[name] ?? 0) >= threshold);

/** "fluency 0.4 < 0.55": the first threshold a candidate missed. */
function missed(entry: ScoredCandidate, thresholds: Record<string, number>): string {
  const [name, threshold] = Object.entries(thresholds)
    .find(([name, threshold]) => (entry.scores[name] ?? 0) < threshold) ?? ["", 0];
  return `${name} ${entry.scores[name] ?? 0} < ${threshold}`;
}

/**
 * One level of the tree, breadth first over all candidates that reached it:
 * the agent picks `count` dimensions (or the request pinned them), every
 * candidate is scored on each, the evaluator sets a threshold per dimension,
 * and those at or above every threshold go on. When no one does, the best
 * half by mean score goes on and the level says `degraded`, so a strict
 * evaluator never leaves the answer with nothing.
 */
export async function runLevel(
  llm: LlmContext,
  input: {
    kind: TotLevelKind;
    /** "level 1", for warnings and reasons. */
    label: string;
    query: string;
    candidates: readonly Candidate[];
    pinned: readonly TotDimension[] | undefined;
    /** How many dimensions the level scores on (`tot.dimensions_per_level`). */
    count: number;
    concurrency: number;
    models?: Readonly<Partial<Record<TotDimension, string>>> | undefined;
  },
  usage: TotUsage,
  signal: AbortSignal | undefined,
): Promise<LevelOutcome> {
  const chosen = await chooseDimensions(llm, input, usage, signal);
  const dimensions: readonly TotDimension[] = chosen.dimensions;
  const { scored: all, warnings: scoreWarnings, unreadable } = await scoreCandidates(
    llm,
    { ...input, dimensions },
    usage,
    signal,
  );
  // A candidate missing a score is not screened against a threshold it cannot be compared with.
  const complete = (entry: ScoredCandidate) =>
    dimensions.every((name) => entry.scores[name] !== undefined);
  const scored = all.filter(complete);
  const unscored = all.filter((entry) => !complete(entry));
  const rows = scored.map((entry) => entry.scores);
  const set = scored.length > 0
    ? await setThresholds(llm, { ...input, dimensions, rows }, usage, signal)
    : { thresholds: {}, degraded: true, warnings: [] };
  const warnings = [...chosen.warnings, ...scoreWarnings, ...set.warnings];
  let keep = new Set(scored.filter((entry) => meets(entry.scores, set.thresholds)));
  const nobodyPassed = keep.size === 0 && scored.length > 0;
  if (nobodyPassed) {
    keep = new Set(bestHalf(rows, dimensions).map((position) => scored[position]!));
    warnings.push(
      `${input.label}: no candidate met every threshold; the best half by mean score went on`,
    );
  }
  const dropped = new Map(
    scored.filter((entry) => !keep.has(entry)).map((entry) => [
      entry.candidate.index,
      nobodyPassed
        ? `${input.label}: below the best half by mean score, as no candidate met every threshold`
        : `${input.label}: ${missed(entry, set.thresholds)}`,
    ]),
  );
  const degraded = nobodyPassed || set.degraded || chosen.chosen_by === "default" ||
    scored.some((entry) => entry.degraded);
  return {
    level: {
      kind: input.kind,
      dimensions: chosen.dimensions,
      chosen_by: chosen.chosen_by,
      thresholds: set.thresholds,
      candidates: all.map((entry) => ({
        index: entry.candidate.index,
        scores: entry.scores,
        kept: keep.has(entry),
        ...(entry.degraded ? { degraded: true as const } : {}),
      })),
      ...(degraded || unscored.length > 0 ? { degraded: true as const } : {}),
    },
    kept: scored.filter((entry) => keep.has(entry)),
    unscored,
    unreadable,
    dropped,
    warnings,
  };
}

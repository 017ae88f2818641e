import type { Rubric } from "./rubric.ts";
import type { Judgment, Scores } from "./types.ts";

export type RankedDocument = {
  /** Index in the caller's document list. */
  index: number;
  scores: Omit<Scores, "relevance"> & { relevance: number | null };
  reason?: string;
  /** True when this document's batch failed and it kept its retrieval place. */
  degraded?: true;
};

/** A document left out, with why; REBEL's carry the final score they would have had. */
export type Discarded = { index: number; reason: string; relevance_score?: number };

const round = (value: number) => Math.round(value * 1e6) / 1e6;

/**
 * The final score, computed in code from the parts: `relevance + Σ w_i ·
 * criterion_i`. A text-mode line without its breakdown keeps the final score
 * the model wrote, and its relevance is unknown (null).
 */
export function finalScore(judgment: Judgment, rubric: Rubric): RankedDocument["scores"] {
  if (judgment.relevance === undefined) {
    return { relevance: null, criteria: {}, final: round(judgment.statedFinal ?? 0) };
  }
  const weighted = rubric.criteria.reduce(
    (sum, criterion) => sum + criterion.weight * (judgment.criteria[criterion.name] ?? 0),
    0,
  );
  return {
    relevance: judgment.relevance,
    criteria: judgment.criteria,
    final: round(judgment.relevance + weighted),
  };
}

/**
 * Orders scored documents: final score descending, then the rubric's
 * tie-break criterion, then the earlier retrieval rank. Documents below the
 * relevance threshold go to `discarded` with the reason.
 */
export function rankJudgments(
  judgments: readonly { index: number; judgment: Judgment }[],
  rubric: Rubric,
): { kept: RankedDocument[]; discarded: Discarded[] } {
  const kept: RankedDocument[] = [];
  const discarded: Discarded[] = [];
  for (const { index, judgment } of judgments) {
    const scores = finalScore(judgment, rubric);
    if (scores.relevance !== null && scores.relevance < rubric.relevance_threshold) {
      discarded.push({
        index,
        reason:
          `relevance ${scores.relevance} is below the threshold ${rubric.relevance_threshold}`,
        relevance_score: scores.final,
      });
      continue;
    }
    kept.push({ index, scores, ...(judgment.reason ? { reason: judgment.reason } : {}) });
  }
  const tie = rubric.tie_break;
  kept.sort((x, y) =>
    y.scores.final - x.scores.final ||
    (y.scores.criteria[tie] ?? 0) - (x.scores.criteria[tie] ?? 0) ||
    x.index - y.index
  );
  return { kept, discarded };
}

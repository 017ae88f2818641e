import { meanScore } from "../../../shared/rerank/tot/thresholds.ts";
import type { TotUnit } from "../../../shared/rerank/tot/options.ts";
import type { RerankDocument } from "../../../shared/rerank/types.ts";
import type { Candidate } from "./candidates.ts";
import type { ScoredCandidate } from "./scoring.ts";

/** A kept candidate as `/v1/rerank` returns it. */
export type TotResultItem = {
  /** The request's document: the passage, or the sentence's source passage. */
  index: number;
  id?: string;
  /**
   * Equals `scores.final`: the mean level-2 (similarity) score, in [0, 1];
   * null for a candidate whose score stayed unreadable (`degraded`).
   */
  relevance_score: number | null;
  scores: { relevance: null; criteria: Record<string, number>; final: number } | null;
  /** A score of this candidate stayed unreadable after a correction: unscored, after the ranked. */
  degraded?: true;
  /** Sentence unit: the kept sentence, and its index among `tree.sentences`. */
  sentence?: string;
  candidate?: number;
};

// Means of decimals like 0.7 and 0.8 come out as 0.7500000000000001; six places are plenty.
const round = (value: number) => Math.round(value * 1e6) / 1e6;

/**
 * Orders the survivors of level 2 (paper 003 §3.3): by mean level-2 score,
 * then mean level-1 score, then retrieval order, each with the four scores
 * it was judged on.
 */
export function rankSurvivors(
  survivors: readonly ScoredCandidate[],
  context: {
    unit: TotUnit;
    documents: readonly RerankDocument[];
    firstScores: (entry: ScoredCandidate) => Record<string, number>;
    level1: readonly string[];
    level2: readonly string[];
  },
): TotResultItem[] {
  return survivors
    .map((entry) => ({
      entry,
      similarity: round(meanScore(entry.scores, context.level2)),
      quality: round(meanScore(context.firstScores(entry), context.level1)),
    }))
    .sort((x, y) =>
      y.similarity - x.similarity || y.quality - x.quality ||
      x.entry.candidate.index - y.entry.candidate.index
    )
    .map(({ entry, similarity }) => {
      const { document, index, text } = entry.candidate;
      const id = context.documents[document]?.id;
      return {
        index: document,
        ...(id === undefined ? {} : { id }),
        relevance_score: similarity,
        scores: {
          relevance: null,
          criteria: { ...context.firstScores(entry), ...entry.scores },
          final: similarity,
        },
        ...(context.unit === "sentence" ? { sentence: text, candidate: index } : {}),
      };
    });
}

/**
 * The passages left out, with why: for passages, the level and threshold
 * that dropped each; for sentences, the passages none of whose sentences
 * was kept.
 */
export function discardedPassages(
  unit: TotUnit,
  documentCount: number,
  candidates: readonly Candidate[],
  outcome: {
    dropped: ReadonlyMap<number, string>;
    kept: readonly TotResultItem[];
    skipped: boolean;
  },
): { index: number; reason: string }[] {
  if (unit === "passage") {
    return candidates.flatMap((candidate) => {
      const reason = outcome.dropped.get(candidate.index);
      return reason === undefined ? [] : [{ index: candidate.document, reason }];
    });
  }
  const kept = new Set(outcome.kept.map((result) => result.index));
  const screened = new Set(candidates.map((candidate) => candidate.document));
  return Array.from({ length: documentCount }, (_, index) => index)
    .filter((index) => !kept.has(index))
    .map((index) => ({
      index,
      reason: screened.has(index)
        ? "none of its sentences was kept"
        : outcome.skipped
        ? "not screened: past the sentence cap"
        : "no sentence to screen",
    }));
}

/**
 * Candidates set aside at a level because a score stayed unreadable: after
 * the ranked ones, in retrieval order, with no score (never a 0); the
 * scores that were read stay in `tree`.
 */
export function unscoredItems(
  unscored: readonly ScoredCandidate[],
  context: { unit: TotUnit; documents: readonly RerankDocument[] },
): TotResultItem[] {
  return [...unscored]
    .sort((x, y) => x.candidate.index - y.candidate.index)
    .map((entry) => {
      const { document, index, text } = entry.candidate;
      const id = context.documents[document]?.id;
      return {
        index: document,
        ...(id === undefined ? {} : { id }),
        relevance_score: null,
        scores: null,
        degraded: true as const,
        ...(context.unit === "sentence" ? { sentence: text, candidate: index } : {}),
      };
    });
}

import type { TokenUsage } from "../llm/chat.ts";
import type { RerankDocument } from "../rerank/types.ts";

/**
 * The evaluators' contracts (RAGElo, paper 001 §5-7 and Appendix A; REBEL's
 * metrics, paper 000 §3). Implementations live beside this file:
 * `retrieval.ts`, `answer.ts`, `pairwise.ts`, `similarity.ts`.
 * Every evaluator uses `deps.judge` (JUDGE_MODEL), degrades rather than
 * fails on a model's bad output (`degraded: true`), and reports its tokens.
 */

/** 0 not relevant, 1 somewhat relevant (on topic, not a full answer), 2 very relevant. */
export type RelevanceGrade = 0 | 1 | 2;

/**
 * A document's grade; `score: null` with `degraded: true` when the judge's
 * reply was unreadable (after one correction) or the judge could not be
 * reached: such a judgment is counted in `excluded`, never as a 0.
 */
export type RetrievalJudgment = {
  index: number;
  score: RelevanceGrade | null;
  reason: string;
  degraded?: true;
  /** The reply changed its grade on the way ("Score: 2 — actually no, … so 1"): the last stands. */
  revised?: true;
};

export type RetrievalEvaluation = {
  judgments: RetrievalJudgment[];
  /**
   * REBEL's retrieval precision: the share of the documents with a grade
   * that were judged relevant (score ≥ 1); null when none has a grade.
   */
  precision: number | null;
  /** How many documents `precision` left out: their judgment has no score. */
  excluded: number;
  degraded: boolean;
  usage: TokenUsage;
};

export type AnswerScores = {
  relevance: number;
  accuracy: number;
  completeness: number;
  precision: number;
};

export type AnswerEvaluation = {
  /** Each 0-2; null when the judge's reply held no readable scores (`degraded`). */
  scores: AnswerScores | null;
  reasoning: string;
  /** The reply changed a score on the way: the last stated one stands. */
  revised?: true;
  degraded: boolean;
  usage: TokenUsage;
};

export type Verdict = "A" | "B" | "C";

export type PairwiseEvaluation = {
  /**
   * Judged in both orders: the same winner twice wins, a disagreement is a
   * tie (C); null when an order's verdict was unreadable (`degraded`): no
   * game, not a tie.
   */
  winner: Verdict | null;
  /**
   * [verdict with A first, verdict with B first] — both in terms of the
   * original A and B; null for an order whose reply was unreadable.
   */
  verdicts: [Verdict | null, Verdict | null];
  /** True when the two orders did not agree: the judge's position bias showing. */
  orders_disagree: boolean;
  reasoning: string;
  /** An order's reply changed its verdict on the way: the last stated one stands. */
  revised?: true;
  degraded: boolean;
  usage: TokenUsage;
};

export type SimilarityEvaluation = {
  /** REBEL's answer similarity, 0-5 against a reference answer; null when unreadable (`degraded`). */
  score: number | null;
  reason: string;
  /** The reply changed its score on the way: the last stated one stands. */
  revised?: true;
  degraded: boolean;
  usage: TokenUsage;
};

export type JudgeDocument = RerankDocument;

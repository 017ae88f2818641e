import type { StepRecord } from "../../shared/steps/clock.ts";
import type { Pipeline } from "../../shared/pipeline.ts";
import type { AnswerScores, RetrievalJudgment, Verdict } from "../../shared/judge/types.ts";
import type { AgentRating } from "../../shared/metrics/elo.ts";

/** One evaluation question (a `.jsonl` line); `target_doc: null` tests "no answer". */
export type EvalQuestion = {
  id: string;
  question: string;
  reference_answer?: string | null | undefined;
  target_doc?: string | null | undefined;
};

export type Variant = { name: string; pipeline: Pipeline };

/** A passage the answer step saw, with what the judges need. */
export type Passage = {
  id: string;
  doc_id: string;
  title?: string | undefined;
  text: string;
  metadata?: Record<string, unknown> | undefined;
};

/** One question through one pipeline variant. */
export type VariantRun = {
  answer: string;
  answered: boolean;
  citations: number;
  /** The retrieval step's ranking, best first. */
  retrieved: { id: string; doc_id: string; score: number }[];
  /** What the answer step was given, in order (after rerank, or the top of retrieval). */
  kept: Passage[];
  steps: StepRecord[];
  total_ms: number;
  tokens_in: number;
  tokens_out: number;
  output_chars: number;
  /** Output characters per second of the whole pipeline (REBEL's speed). */
  chars_per_second: number;
  degraded: boolean;
};

/** Everything measured for one question × variant. */
export type VariantResult = {
  run?: VariantRun;
  retrieval?: { precision: number; judgments: RetrievalJudgment[]; degraded: boolean };
  similarity?: { score: number; reason: string; degraded: boolean };
  answer_scores?: AnswerScores & { degraded: boolean };
};

export type Game = {
  query_id: string;
  a: string;
  b: string;
  winner: Verdict;
  verdicts: [Verdict, Verdict];
  orders_disagree: boolean;
};

export type UnitError = { unit: string; message: string };

export type QuestionResult = EvalQuestion & {
  variants: Record<string, VariantResult>;
  games: Game[];
};

export type { Interval } from "../../shared/metrics/stats.ts";
import type { Interval } from "../../shared/metrics/stats.ts";

export type VariantSummary = {
  variant: string;
  runs: number;
  failed: number;
  retrieval_precision: Interval | null;
  /** 0-5 against the reference answers. */
  answer_similarity: Interval | null;
  /** REBEL: (answer similarity / 5) × retrieval precision, from the two means. */
  system_quality: number | null;
  /** Output characters per second: all answer characters over all pipeline seconds. */
  speed_chars_per_second: number;
  latency_ms: { total: number; steps: Record<string, number> };
  tokens: { in: number; out: number };
  answer_scores: AnswerScores | null;
  /** By paper: hit when a kept passage comes from the question's `target_doc`. */
  hit_at_k: { k: number; value: number; n: number } | null;
  mrr_at_5: number | null;
  /**
   * RAGElo's MRR@5 from the judge's grades of the kept passages, in the
   * order the pipeline kept them: `somewhat` counts a grade ≥ 1 as relevant,
   * `very` only a 2 (paper 001, Table 4).
   */
  judged_mrr_at_5: { somewhat: number; very: number } | null;
  /** Questions with `target_doc: null`: how many answers said the documents do not answer. */
  no_answer: { abstained: number; of: number };
};

export type EloRating = AgentRating;

/** RAGElo table 5: `rate[i][j]` is the share of i-vs-j games that i won (ties are the rest). */
export type WinRateMatrix = {
  agents: string[];
  rate: (number | null)[][];
  games: number[][];
  /** Mean of each row's rates over the opponents it met. */
  average: (number | null)[];
  total_games: number;
  /** Share of games whose two orders disagreed: the judge's position bias. */
  position_bias: number | null;
};

export type MetricDelta = {
  variant: string;
  metric: string;
  previous: number;
  current: number;
  delta: number;
  regression: boolean;
  rule: string;
};

export type Comparison =
  | { first_run: true }
  | {
    first_run: false;
    previous_run_id: string;
    previous_created_at: string;
    deltas: MetricDelta[];
    regressions: MetricDelta[];
  };

export type EvaluationReport = {
  run_id: string;
  dataset: { name: string; questions: number };
  created_at: string;
  config: {
    variants: Variant[];
    limit: number | null;
    games_per_query: number;
    concurrency: number;
    namespace: string;
    models: { llm: string; judge: string };
    ci: string;
    elo: { tournaments: number; seed: number };
  };
  timing: {
    started_at: string;
    finished_at: string;
    duration_ms: number;
    units: { computed: number; reused: number; failed: number };
  };
  summary: VariantSummary[];
  elo: EloRating[];
  win_rates: WinRateMatrix;
  queries: QuestionResult[];
  errors: UnitError[];
  comparison?: Comparison;
};

export type EvalPhase = "runs" | "judgments" | "games";

export type EvalProgress = {
  done: number;
  total: number;
  phase: EvalPhase;
  /** Units found in the checkpoints instead of computed. */
  reused: number;
  failed: number;
};

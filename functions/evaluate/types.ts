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

/**
 * A passage of the retrieval step's ranking. In a run's checkpoint the first
 * `JUDGED_RETRIEVED` carry their text and metadata, for the judge behind
 * RAGElo's MRR@5; the report keeps only ids and scores.
 */
export type RetrievedPassage = {
  id: string;
  doc_id: string;
  score: number;
  text?: string | undefined;
  metadata?: Record<string, unknown> | undefined;
};

/** RAGElo's MRR@5 looks at the first five retrieved passages (paper 001, §7.2.1). */
export const JUDGED_RETRIEVED = 5;

/** One question through one pipeline variant. */
export type VariantRun = {
  answer: string;
  answered: boolean;
  citations: number;
  /** The retrieval step's ranking, best first. */
  retrieved: RetrievedPassage[];
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
  /** Strategy item: the documents of its final utility set (ITEM's selection), by `doc_id`. */
  utility_doc_ids?: string[] | undefined;
  /**
   * What fell back in this run: the rubric (two-turn reranked with the
   * default rubric, as one-turn does), the rerank order (a batch kept its
   * retrieval order) or the query variations (fusion ran on the query alone).
   */
  fallbacks?: Fallbacks | undefined;
  /** What each model step asked of its model and left unreadable after a correction. */
  readings?: StepReadings | undefined;
  /** USD over the pipeline's steps (`usage.cost_usd`); null: a model with no known price. */
  cost_usd?: number | null;
};

export type Fallbacks = { rubric?: true; rerank_order?: true; variations?: true };

/** Values a step asked of its model, and those unreadable after one correction turn. */
export type StepReading = { asked: number; unreadable: number };
export type StepReadings = { rerank: StepReading; rubric: StepReading; variations: StepReading };

/** Everything measured for one question × variant. */
export type VariantResult = {
  run?: VariantRun;
  retrieval?: {
    /**
     * REBEL's retrieval precision: the share of the kept passages graded ≥ 1,
     * among those with a grade; null when none has one.
     */
    precision: number | null;
    /** Kept passages whose judgment has no score (unreadable reply): left out of `precision`. */
    excluded?: number | undefined;
    /** The kept passages' grades; `index` is the position in `run.kept`. */
    judgments: RetrievalJudgment[];
    /**
     * The first `JUDGED_RETRIEVED` retrieved passages' grades; `index` is the
     * retrieval rank from 0. A passage also kept shares the kept one's judgment.
     */
    retrieved_judgments?: RetrievalJudgment[] | undefined;
    degraded: boolean;
  };
  /** `score` null: the judge's reply was unreadable; left out of the means. */
  similarity?: { score: number | null; reason: string; degraded: boolean };
  /** null: the judge's reply held no readable scores; left out of the means. */
  answer_scores?: (AnswerScores & { degraded: boolean }) | null;
};

export type Game = {
  query_id: string;
  /** Which run of the question (from 1), when the evaluation repeats questions. */
  repetition?: number;
  a: string;
  b: string;
  /** null: an order's verdict was unreadable; the game is left out of Elo, win and tie rates. */
  winner: Verdict | null;
  verdicts: [Verdict | null, Verdict | null];
  orders_disagree: boolean;
};

export type UnitError = { unit: string; message: string };

export type QuestionResult = EvalQuestion & {
  /** Which run of the question (from 1), when the evaluation repeats questions (`repeat`). */
  repetition?: number;
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
  /** Mean USD per question; null when any run's cost is unknown (docs/tracing.md). */
  cost_per_query_usd?: number | null;
  answer_scores: AnswerScores | null;
  /** By paper: hit when a kept passage comes from the question's `target_doc`. */
  hit_at_k: { k: number; value: number; n: number } | null;
  /**
   * RAGElo's MRR@5 (paper 001, §7.2.1 and Table 4): the judge's grades of the
   * first five *retrieved* passages, in retrieval order; `somewhat` counts a
   * grade ≥ 1 as relevant, `very` only a 2. A pipeline that retrieves fewer
   * than five is judged on what it retrieved.
   */
  mrr_at_5: JudgedMrr | null;
  /** The same grades' MRR over the kept passages (what the answer saw), in kept order. */
  kept_mrr: JudgedMrr | null;
  /** By paper: MRR@5 of the first chunk from `target_doc` among the first five retrieved. */
  target_mrr_at_5: number | null;
  /** Questions with `target_doc: null`: how many answers said the documents do not answer. */
  no_answer: { abstained: number; of: number };
  /** How many of this variant's judgments were unreadable and left out, and how many runs fell back. */
  reliability?: Reliability;
};

/** Judgments made and left out (no score: unreadable reply or judge unreachable). */
export type JudgeCount = { judged: number; excluded: number };

/**
 * Per variant: each judge's judgments and how many were left out of every
 * aggregate, the share of all of them left out, and the runs that fell back
 * (rubric → default, rerank order kept, variations → the query alone).
 */
export type Reliability = {
  judges: {
    retrieval: JudgeCount;
    similarity: JudgeCount;
    answer: JudgeCount;
    pairwise: JudgeCount;
  };
  /**
   * Each pipeline step's replies: values asked and those unreadable after
   * a correction (rerank scores, ITEM judgments and ToT scores; the
   * rubric; the query variations), as `judged` / `excluded`.
   */
  steps?: { rerank: JudgeCount; rubric: JudgeCount; variations: JudgeCount };
  /**
   * Everything left unread over everything asked: the judges' left-out
   * judgments and every step's unreadable replies; null when nothing was asked.
   */
  degraded_share: number | null;
  fallbacks: { runs: number; rubric: number; rerank_order: number; variations: number };
  /** Runs with any fallback over all runs; null without runs. */
  fallback_share: number | null;
};

export type EloRating = AgentRating;

/**
 * MRR at RAGElo's two thresholds: relevant means graded ≥ 1 (`somewhat`) or
 * 2 (`very`); `excluded` rankings had an ungraded passage before their
 * first relevant one (or none relevant), so their rank is unknown.
 */
export type JudgedMrr = { somewhat: number; very: number; n: number; excluded?: number };

/**
 * The share of games that ended in a tie under each protocol: both orders
 * (ours: a disagreement between the orders is a tie) and the first order
 * alone (RAGElo's: one judgment per game).
 */
export type TieRates = { both_orders: number | null; first_order: number | null };

/** RAGElo table 5: `rate[i][j]` is the share of i-vs-j games that i won (ties are the rest). */
export type WinRateMatrix = {
  agents: string[];
  rate: (number | null)[][];
  games: number[][];
  /** Mean of each row's rates over the opponents it met. */
  average: (number | null)[];
  total_games: number;
  /** Games left out: an order's verdict was unreadable (not counted as ties). */
  excluded_games?: number;
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
    /** Runs per question (`--repeat`); the intervals cover all of them. */
    repeat: number;
    /**
     * `EVAL_MAX_DEGRADED_SHARE` when the run was made: above this share of
     * unreadable judgments or fallback runs for any variant, the verdict
     * names no winner. Absent in older reports: the default, 0.1.
     */
    max_degraded_share?: number;
  };
  timing: {
    started_at: string;
    finished_at: string;
    duration_ms: number;
    units: { computed: number; reused: number; failed: number };
  };
  summary: VariantSummary[];
  /** Elo from games judged in both orders (ours). */
  elo: EloRating[];
  /** Elo from each game's first-order verdict alone: RAGElo's protocol, comparable to its tables. */
  elo_first_order: EloRating[];
  tie_rates: TieRates;
  win_rates: WinRateMatrix;
  /** Every pair of variants tested over the same questions (`paired.ts`); absent in older reports. */
  paired?: PairedTest[];
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

/** Two variants compared over the same questions (and runs) on one per-question score. */
export type PairedTest = {
  a: string;
  b: string;
  metric: "answer_similarity" | "retrieval_precision";
  /** Questions (× runs) where both variants have a usable score. */
  n: number;
  /** Mean of b − a. */
  mean_difference: number;
  /** Two-sided p-values: SciPy's ttest_rel and wilcoxon (defaults); null where undefined. */
  t_test_p: number | null;
  wilcoxon_p: number | null;
};

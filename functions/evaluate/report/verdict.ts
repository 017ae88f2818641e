import type { EvaluationReport, VariantSummary } from "../types.ts";

/** A variant's quality as a point and its 95% interval, on the scale the verdict ranks by. */
export type Rated = { variant: string; value: number; low: number; high: number };

export type Verdict = {
  /** What quality was ranked by: Elo when games were played, else answer similarity. */
  measure: "Elo" | "answer similarity";
  /** Best quality first. */
  rated: Rated[];
  /** The variant to ship, or null when nothing could be rated. */
  ship: string | null;
  /**
   * `clear`: the leader's interval lies above every other's; `not enough
   * evidence`: some overlap; `unreliable`: a variant's share of unreadable
   * judgments or fallback runs passed the bound, so no winner is named.
   */
  certainty: "clear" | "not enough evidence" | "no data" | "unreliable";
  /** Variants whose interval overlaps the leader's, the leader first: the data cannot order them. */
  tied: string[];
  /** Variants whose interval lies wholly below the leader's. */
  worse: string[];
  /** Variants past the bound, with their shares (only with `unreliable`). */
  unreliable?: Unreliable[];
  /** The bound the shares were held to. */
  bound?: number;
};

/** A variant whose numbers rest on too many unreadable judgments or fallback runs. */
export type Unreliable = {
  variant: string;
  degraded_share: number | null;
  fallback_share: number | null;
};

/** `EVAL_MAX_DEGRADED_SHARE`'s default: more than 10% left out or fallen back names no winner. */
export const DEFAULT_MAX_DEGRADED_SHARE = 0.1;

/** The variants whose degraded or fallback share is above `bound`. */
export function unreliableVariants(report: EvaluationReport, bound: number): Unreliable[] {
  return report.summary.flatMap((s) => {
    const r = s.reliability;
    if (!r) return [];
    const over = (share: number | null) => share !== null && share > bound;
    return over(r.degraded_share) || over(r.fallback_share)
      ? [{ variant: s.variant, degraded_share: r.degraded_share, fallback_share: r.fallback_share }]
      : [];
  });
}

/** Two closed intervals overlap when neither ends before the other starts. */
export const overlap = (a: Rated, b: Rated) => a.low <= b.high && b.low <= a.high;

/** Mean tokens (in + out) a variant spent on one run of one question: its cost. */
export const tokensPerRun = (s: VariantSummary) =>
  s.runs ? (s.tokens.in + s.tokens.out) / s.runs : Infinity;

function ratedOf(report: EvaluationReport): Pick<Verdict, "measure" | "rated"> {
  if (report.elo.length > 1) {
    return {
      measure: "Elo",
      rated: report.elo.map((r) => ({
        variant: r.agent,
        value: r.score,
        low: r.ci_low,
        high: r.ci_high,
      })),
    };
  }
  const rated = report.summary.flatMap((s) =>
    s.answer_similarity && s.runs
      ? [{
        variant: s.variant,
        value: s.answer_similarity.mean,
        low: s.answer_similarity.ci_low,
        high: s.answer_similarity.ci_high,
      }]
      : []
  ).sort((a, b) => b.value - a.value || a.variant.localeCompare(b.variant));
  return { measure: "answer similarity", rated };
}

/**
 * The variant to ship. Quality is the Elo rating from the pairwise games
 * (both orders), or answer similarity when no games were played, each with
 * its 95% interval. The leader is the best rated. Every variant whose
 * interval overlaps the leader's is `tied` with it: the data do not say
 * which is better, so the verdict is "not enough evidence" and the
 * cheapest of them ships (fewest tokens per question, then the lowest mean
 * latency). When no interval overlaps the leader's, the verdict is `clear`
 * and the leader ships whatever it costs. Overlapping 95% intervals are a
 * cautious test: two variants can differ significantly and still overlap.
 * Before any of that: when a variant's share of judgments left out
 * (unreadable) or of runs that fell back passes the run's bound
 * (`EVAL_MAX_DEGRADED_SHARE`, default 0.1), the verdict is `unreliable`
 * and ships nothing: its numbers do not measure what they claim.
 */
export function verdictOf(report: EvaluationReport): Verdict {
  const { measure, rated } = ratedOf(report);
  const bound = report.config.max_degraded_share ?? DEFAULT_MAX_DEGRADED_SHARE;
  const unreliable = unreliableVariants(report, bound);
  if (unreliable.length > 0) {
    return {
      measure,
      rated,
      ship: null,
      certainty: "unreliable",
      tied: [],
      worse: [],
      unreliable,
      bound,
    };
  }
  const leader = rated[0];
  if (!leader) return { measure, rated, ship: null, certainty: "no data", tied: [], worse: [] };
  const tied = rated.filter((r) => overlap(r, leader)).map((r) => r.variant);
  const worse = rated.filter((r) => !overlap(r, leader)).map((r) => r.variant);
  if (tied.length === 1) {
    return { measure, rated, ship: leader.variant, certainty: "clear", tied, worse };
  }
  const summary = new Map(report.summary.map((s) => [s.variant, s]));
  const cost = (variant: string) => {
    const s = summary.get(variant);
    return s ? [tokensPerRun(s), s.latency_ms.total] : [Infinity, Infinity];
  };
  const ship = [...tied].sort((a, b) => {
    const [ca, la] = cost(a), [cb, lb] = cost(b);
    return ca! - cb! || la! - lb!;
  })[0]!;
  return { measure, rated, ship, certainty: "not enough evidence", tied, worse };
}

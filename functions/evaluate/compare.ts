import type { RunSummary } from "./run-summary.ts";
import type { Comparison, MetricDelta } from "./types.ts";

type Metrics = RunSummary["variants"][string];
type Rule = {
  metric: keyof Metrics;
  flag?: (
    previous: number,
    current: number,
    interval?: { ci_low: number; n: number },
  ) => string | undefined;
};

const relativeDrop = (limit: number) => (previous: number, current: number) =>
  previous > 0 && (previous - current) / previous > limit
    ? `fell more than ${limit * 100}%`
    : undefined;
const absoluteDrop = (limit: number) => (previous: number, current: number) =>
  previous - current > limit ? `fell more than ${limit}` : undefined;
/** Below the previous run's 95% interval; with too few questions for one, a 10% drop. */
const belowInterval = (
  previous: number,
  current: number,
  interval?: { ci_low: number; n: number },
) =>
  interval && interval.n >= 2
    ? current < interval.ci_low - 1e-9
      ? `below the previous 95% CI (≥ ${interval.ci_low.toFixed(3)})`
      : undefined
    : relativeDrop(0.1)(previous, current);

/** Each metric's regression rule; Elo is shown but never flagged (it is relative to the run's field). */
const RULES: Rule[] = [
  { metric: "retrieval_precision", flag: belowInterval },
  { metric: "answer_similarity", flag: belowInterval },
  { metric: "system_quality", flag: relativeDrop(0.1) },
  { metric: "speed_chars_per_second", flag: relativeDrop(0.25) },
  { metric: "hit_at_k", flag: absoluteDrop(0.1) },
  { metric: "target_mrr_at_5", flag: absoluteDrop(0.1) },
  { metric: "mrr_at_5_somewhat", flag: absoluteDrop(0.1) },
  { metric: "elo" },
];

/** The change of every metric of every variant both runs share, regressions flagged. */
export function compareRuns(current: RunSummary, previous: RunSummary | undefined): Comparison {
  if (!previous) return { first_run: true };
  const deltas: MetricDelta[] = [];
  for (const [variant, now] of Object.entries(current.variants)) {
    const before = previous.variants[variant];
    if (!before) continue;
    for (const rule of RULES) {
      const [was, is] = [before[rule.metric], now[rule.metric]];
      if (was == null || is == null) continue;
      const interval = typeof was === "object" ? was : undefined;
      const [p, c] = [
        typeof was === "object" ? was.mean : was,
        typeof is === "object" ? is.mean : is,
      ];
      const reason = rule.flag?.(p, c, interval);
      deltas.push({
        variant,
        metric: rule.metric,
        previous: p,
        current: c,
        delta: c - p,
        regression: reason !== undefined,
        rule: reason ?? (rule.flag ? "within bounds" : "not flagged"),
      });
    }
  }
  return {
    first_run: false,
    previous_run_id: previous.run_id,
    previous_created_at: previous.created_at,
    deltas,
    regressions: deltas.filter((delta) => delta.regression),
  };
}

import { mean } from "../../shared/metrics/retrieval.ts";
import { pairedTTest, wilcoxonSignedRank } from "../../shared/metrics/significance.ts";
import type { CellResult } from "./beir-run.ts";

/** One grid cell's means over the queries it scored (REBEL's quality/cost frontier). */
export type CellSummary = {
  strategy: string;
  mode: string;
  queries: number;
  failed: number;
  ndcg10: number;
  recall: number;
  mrr10: number;
  utility: { precision: number; recall: number; f1: number };
  /** Over the queries with a reference answer; null without any. */
  em: number | null;
  f1: number | null;
  per_query: { calls: number; tokens: number; seconds: number };
  degraded: number;
};

/** A cell against the baseline (the grid's first cell) over the queries both scored. */
export type PairedComparison = {
  strategy: string;
  mode: string;
  queries: number;
  delta_ndcg10: number;
  t_test: number;
  wilcoxon: number;
};

export function summarizeCell(cell: CellResult): CellSummary {
  const scores = [...cell.scores.values()];
  const runs = [...cell.runs.values()];
  const answered = scores.filter((score) => score.em !== undefined);
  const of = (pick: (score: (typeof scores)[number]) => number) => mean(scores.map(pick));
  return {
    strategy: cell.strategy,
    mode: cell.mode,
    queries: scores.length,
    failed: cell.failed.length,
    ndcg10: of((score) => score.ndcg10),
    recall: of((score) => score.recall),
    mrr10: of((score) => score.mrr10),
    utility: {
      precision: of((score) => score.utility.precision),
      recall: of((score) => score.utility.recall),
      f1: of((score) => score.utility.f1),
    },
    em: answered.length ? mean(answered.map((score) => score.em!)) : null,
    f1: answered.length ? mean(answered.map((score) => score.f1!)) : null,
    per_query: {
      calls: mean(runs.map((run) => run.calls)),
      tokens: mean(runs.map((run) => run.tokens)),
      seconds: mean(runs.map((run) => run.ms / 1000)),
    },
    degraded: runs.filter((run) => run.degraded).length,
  };
}

/**
 * Each cell's nDCG@10 against the baseline's, paired by query: the two-sided
 * paired t-test and Wilcoxon signed-rank p-values (SciPy's `ttest_rel` and
 * `wilcoxon`), so "B beats A" says how sure it is. NaN where a test has no
 * answer (fewer than two queries, no differences).
 */
export function compareToBaseline(cells: readonly CellResult[]): PairedComparison[] {
  const [baseline, ...others] = cells;
  if (!baseline) return [];
  return others.map((cell) => {
    const ids = [...cell.scores.keys()].filter((id) => baseline.scores.has(id));
    const a = ids.map((id) => cell.scores.get(id)!.ndcg10);
    const b = ids.map((id) => baseline.scores.get(id)!.ndcg10);
    const differ = a.some((value, index) => value !== b[index]);
    return {
      strategy: cell.strategy,
      mode: cell.mode,
      queries: ids.length,
      delta_ndcg10: mean(a) - mean(b),
      t_test: ids.length > 1 ? pairedTTest(a, b).p_value : NaN,
      wilcoxon: differ ? wilcoxonSignedRank(a, b).p_value : NaN,
    };
  });
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((cell, column) =>
    Math.max(cell.length, ...rows.map((row) => row[column]!.length))
  );
  const line = (row: string[]) =>
    row.map((cell, column) =>
      column < 2 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)
    )
      .join("  ").trimEnd();
  return [line(header), ...rows.map(line)].join("\n");
}

const fixed = (value: number | null, digits = 3) =>
  value === null || Number.isNaN(value) ? "-" : value.toFixed(digits);

/** The quality/cost table: one row per strategy × mode. */
export function renderGridTable(summaries: readonly CellSummary[], recallK: number): string {
  return table(
    [
      "strategy",
      "mode",
      "nDCG@10",
      `R@${recallK}`,
      "MRR@10",
      "util-P",
      "util-R",
      "util-F1",
      "EM",
      "F1",
      "calls/q",
      "tokens/q",
      "s/q",
      "n",
      "degraded",
    ],
    summaries.map((row) => [
      row.strategy,
      row.mode,
      fixed(row.ndcg10),
      fixed(row.recall),
      fixed(row.mrr10),
      fixed(row.utility.precision),
      fixed(row.utility.recall),
      fixed(row.utility.f1),
      fixed(row.em),
      fixed(row.f1),
      fixed(row.per_query.calls, 1),
      fixed(row.per_query.tokens, 0),
      fixed(row.per_query.seconds, 2),
      `${row.queries}${row.failed ? ` (+${row.failed} failed)` : ""}`,
      String(row.degraded),
    ]),
  );
}

/** The paired comparisons against the baseline, as a second table. */
export function renderComparisons(
  baseline: { strategy: string; mode: string } | undefined,
  comparisons: readonly PairedComparison[],
): string {
  if (!baseline || comparisons.length === 0) return "";
  return `nDCG@10 against ${baseline.strategy} / ${baseline.mode}, paired by query ` +
    `(two-sided p: paired t-test, Wilcoxon signed-rank):\n` +
    table(
      ["strategy", "mode", "ΔnDCG@10", "p (t)", "p (Wilcoxon)", "n"],
      comparisons.map((row) => [
        row.strategy,
        row.mode,
        `${row.delta_ndcg10 >= 0 ? "+" : ""}${fixed(row.delta_ndcg10)}`,
        fixed(row.t_test, 4),
        fixed(row.wilcoxon, 4),
        String(row.queries),
      ]),
    );
}

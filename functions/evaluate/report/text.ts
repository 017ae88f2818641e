import type { EvaluationReport, Interval } from "../types.ts";
import { formatDelta, formatNumber } from "./escape.ts";
import { type Verdict, verdictOf } from "./verdict.ts";
import { pairedSentence } from "../paired.ts";

/** The report's verdict in one line, as the HTML report states it at the top. */
function verdictLine(verdict: Verdict): string {
  if (!verdict.ship) return "verdict: no data to decide on";
  if (verdict.certainty === "clear") {
    return `verdict: ship ${verdict.ship} (clearly best by ${verdict.measure})`;
  }
  return `verdict: ship ${verdict.ship}, the cheapest of ${verdict.tied.join(", ")}: ` +
    `not enough evidence to tell them apart by ${verdict.measure} (run more questions)`;
}

const interval = (value: Interval | null, digits: number) =>
  value
    ? `${formatNumber(value.mean, digits)} [${formatNumber(value.ci_low, digits)}, ${
      formatNumber(value.ci_high, digits)
    }]`
    : "—";

/** Columns padded to their widest cell, first column left-aligned, the rest right-aligned. */
function aligned(rows: string[][]): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) =>
    row.map((cell, column) =>
      column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)
    ).join("  ")
  ).join("\n");
}

/**
 * The summary for a terminal: one row per variant (precision and similarity
 * with their 95% intervals, system quality, speed, Elo, hit@k, RAGElo's
 * MRR@5 over the retrieved passages), the tie rates and RAGElo-protocol Elo,
 * then the comparison with the previous run.
 */
export function summaryText(report: EvaluationReport): string {
  const elo = new Map(report.elo.map((rating) => [rating.agent, rating]));
  const header = [
    "variant",
    "precision [95% CI]",
    "similarity 0-5 [95% CI]",
    "quality",
    "chars/s",
    "Elo [95% CI]",
    "hit@k",
    "MRR@5 ≥1/=2",
  ];
  const rows = report.summary.map((s) => {
    const rating = elo.get(s.variant);
    return [
      s.variant,
      interval(s.retrieval_precision, 3),
      interval(s.answer_similarity, 2),
      formatNumber(s.system_quality),
      formatNumber(s.speed_chars_per_second, 0),
      rating
        ? `${formatNumber(rating.score, 0)} [${formatNumber(rating.ci_low, 0)}, ${
          formatNumber(rating.ci_high, 0)
        }]`
        : "—",
      s.hit_at_k ? `${formatNumber(s.hit_at_k.value, 2)}@${s.hit_at_k.k}` : "—",
      s.mrr_at_5
        ? `${formatNumber(s.mrr_at_5.somewhat, 2)}/${formatNumber(s.mrr_at_5.very, 2)}`
        : "—",
    ];
  });
  const lines = [verdictLine(verdictOf(report)), aligned([header, ...rows])];
  const bias = report.win_rates.position_bias;
  lines.push(
    `${report.win_rates.total_games} pairwise games` +
      (bias === null ? "" : `; the judge's two orders disagreed in ${(bias * 100).toFixed(1)}%`),
  );
  const ties = report.tie_rates;
  if (ties.both_orders !== null && ties.first_order !== null) {
    const firstElo = report.elo_first_order.map((rating) =>
      `${rating.agent} ${formatNumber(rating.score, 0)}`
    ).join(", ");
    lines.push(
      `ties: ${(ties.both_orders * 100).toFixed(1)}% judged in both orders, ` +
        `${(ties.first_order * 100).toFixed(1)}% on the first order alone (RAGElo's protocol; ` +
        `its Elo: ${firstElo})`,
    );
  }
  for (const test of report.paired ?? []) lines.push(pairedSentence(test));
  const comparison = report.comparison;
  if (!comparison || comparison.first_run) {
    lines.push("First run of this dataset and these questions: nothing to compare.");
  } else if (comparison.regressions.length === 0) {
    lines.push(`No regressions against ${comparison.previous_run_id}.`);
  } else {
    lines.push(
      `${comparison.regressions.length} regression(s) against ${comparison.previous_run_id}:`,
    );
    for (const delta of comparison.regressions) {
      lines.push(
        `  ${delta.variant} ${delta.metric}: ${formatNumber(delta.previous)} → ${
          formatNumber(delta.current)
        } (${formatDelta(delta.delta)}; ${delta.rule})`,
      );
    }
  }
  if (report.errors.length) lines.push(`${report.errors.length} unit(s) failed; see report.json`);
  return lines.join("\n");
}

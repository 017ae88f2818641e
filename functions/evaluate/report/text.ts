import type { EvaluationReport, Interval, VariantSummary } from "../types.ts";
import { formatDelta, formatNumber } from "./escape.ts";
import { type Verdict, verdictOf } from "./verdict.ts";
import { pairedSentence } from "../paired.ts";

/** The report's verdict in one line, as the HTML report states it at the top. */
function verdictLine(verdict: Verdict): string {
  if (verdict.certainty === "unreliable") {
    const percent = (share: number | null) => share === null ? "—" : `${(share * 100).toFixed(0)}%`;
    return `verdict: no winner named: ${
      (verdict.unreliable ?? []).map((u) =>
        `${u.variant} has ${percent(u.degraded_share)} of its judgments unreadable and ` +
        `${percent(u.fallback_share)} of its runs fallen back`
      ).join("; ")
    }, above the bound of ${percent(verdict.bound ?? null)} (EVAL_MAX_DEGRADED_SHARE)`;
  }
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

/**
 * A variant's degraded judgments and fallback runs as `share (n/of)`, with
 * what fell back: `12% (3/25)` and `4% (1/25: rubric 1)`.
 */
export function reliabilityCells(s: VariantSummary): [string, string] {
  const r = s.reliability;
  if (!r) return ["—", "—"];
  const percent = (share: number | null) => share === null ? "—" : `${(share * 100).toFixed(0)}%`;
  const judges = [...Object.values(r.judges), ...Object.values(r.steps ?? {})];
  const judged = judges.reduce((sum, judge) => sum + judge.judged, 0);
  const excluded = judges.reduce((sum, judge) => sum + judge.excluded, 0);
  const kinds = (["rubric", "rerank_order", "variations"] as const)
    .filter((kind) => r.fallbacks[kind] > 0)
    .map((kind) => `${kind.replace("_", " ")} ${r.fallbacks[kind]}`);
  return [
    `${percent(r.degraded_share)} (${excluded}/${judged})`,
    `${percent(r.fallback_share)} (${r.fallbacks.runs}/${s.runs}${
      kinds.length ? `: ${kinds.join(", ")}` : ""
    })`,
  ];
}

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
    "degraded",
    "fallbacks",
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
      ...reliabilityCells(s),
    ];
  });
  const lines = [verdictLine(verdictOf(report)), aligned([header, ...rows])];
  const bias = report.win_rates.position_bias;
  const excludedGames = report.win_rates.excluded_games ?? 0;
  lines.push(
    `${report.win_rates.total_games} pairwise games` +
      (excludedGames ? ` (${excludedGames} left out: a verdict was unreadable)` : "") +
      (bias === null ? "" : `; the judge's two orders disagreed in ${(bias * 100).toFixed(1)}%`),
  );
  lines.push(
    "degraded: judgments left out of every aggregate (reply unreadable after a correction); " +
      "fallbacks: runs whose rubric, rerank order or query variations fell back",
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

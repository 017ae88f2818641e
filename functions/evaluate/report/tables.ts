import type {
  Comparison,
  EloRating,
  Interval,
  JudgedMrr,
  TieRates,
  VariantSummary,
  WinRateMatrix,
} from "../types.ts";
import { escapeHtml as e, formatDelta, formatNumber, formatPercent } from "./escape.ts";

const interval = (value: Interval | null, digits = 3) =>
  value
    ? `${formatNumber(value.mean, digits)} <span class="ci">[${
      formatNumber(value.ci_low, digits)
    }, ${formatNumber(value.ci_high, digits)}]</span>`
    : "—";

/** Judged MRR at both thresholds, `≥1 / =2`. */
const judgedMrrCell = (value: JudgedMrr | null) =>
  value ? `${formatNumber(value.somewhat)} / ${formatNumber(value.very)}` : "—";

/** USD per query with enough digits for fractions of a cent; "—" when unknown. */
const costCell = (usd: number | null | undefined) =>
  typeof usd === "number" ? (usd === 0 ? "0" : usd.toPrecision(3)) : "—";

/**
 * Every per-variant aggregate, in two tables: answer quality, then retrieval,
 * cost and speed. As one table of fifteen columns it was about 1,450 px wide
 * and cut off in a 1,200 px window; each half fits (and scrolls when narrower).
 */
export function summaryTable(summary: VariantSummary[]): string {
  const variant = (s: VariantSummary) => `<th scope="row">${e(s.variant)}</th>`;
  const quality = summary.map((s) => {
    const scores = s.answer_scores;
    return `<tr>${variant(s)}<td>${s.runs}${
      s.failed ? ` <span class="bad">(${s.failed} failed)</span>` : ""
    }</td>` +
      `<td>${interval(s.retrieval_precision)}</td><td>${interval(s.answer_similarity, 2)}</td>` +
      `<td>${formatNumber(s.system_quality)}</td>` +
      `<td>${
        scores
          ? [scores.relevance, scores.accuracy, scores.completeness, scores.precision]
            .map((v) => formatNumber(v, 2)).join(" / ")
          : "—"
      }</td>` +
      `<td>${s.no_answer.of ? `${s.no_answer.abstained}/${s.no_answer.of}` : "—"}</td></tr>`;
  }).join("");
  const retrieval = summary.map((s) =>
    `<tr>${variant(s)}<td>${
      s.hit_at_k
        ? `${formatNumber(s.hit_at_k.value, 2)} <span class="ci">@${s.hit_at_k.k}</span>`
        : "—"
    }</td>` +
    `<td class="mrr-at-5">${judgedMrrCell(s.mrr_at_5)}</td>` +
    `<td class="kept-mrr">${judgedMrrCell(s.kept_mrr)}</td>` +
    `<td class="target-mrr">${formatNumber(s.target_mrr_at_5)}</td>` +
    `<td class="cost">${costCell(s.cost_per_query_usd)}</td><td>${
      formatNumber(s.speed_chars_per_second, 0)
    }</td>` +
    `<td>${formatNumber(s.latency_ms.total, 0)}</td><td>${s.tokens.in} / ${s.tokens.out}</td></tr>`
  ).join("");
  return `<h3>Answer quality</h3>` +
    `<div class="table-scroll"><table class="summary summary-quality"><thead><tr><th>variant</th><th>runs</th>` +
    `<th>retrieval precision [95% CI]</th><th>answer similarity 0-5 [95% CI]</th><th>system quality</th>` +
    `<th>answer rel / acc / comp / prec (0-2)</th><th>abstained on no-answer</th></tr></thead>` +
    `<tbody>${quality}</tbody></table></div>` +
    `<h3>Retrieval, cost and speed</h3>` +
    `<div class="table-scroll"><table class="summary summary-retrieval"><thead><tr><th>variant</th><th>hit@k (kept)</th>` +
    `<th title="RAGElo: the judge's grades of the first five retrieved passages">MRR@5, retrieved (≥1 / =2)</th>` +
    `<th title="The same grades over the passages the answer was given">kept MRR (≥1 / =2)</th>` +
    `<th title="First chunk of the target document among the first five retrieved">target MRR@5</th>` +
    `<th title="Mean USD per question at the price table's rates (docs/tracing.md)">cost / query (USD)</th>` +
    `<th>speed (chars/s)</th><th>mean latency (ms)</th><th>tokens in / out</th></tr></thead>` +
    `<tbody>${retrieval}</tbody></table></div>`;
}

/** RAGElo's table 5 as a heatmap: each cell the row's wins against the column. */
export function winRateTable(matrix: WinRateMatrix): string {
  if (matrix.total_games === 0) return `<p class="empty">No pairwise games were played.</p>`;
  const head = matrix.agents.map((agent) => `<th scope="col">${e(agent)}</th>`).join("");
  const rows = matrix.agents.map((agent, i) => {
    const cells = matrix.rate[i]!.map((rate, j) => {
      if (i === j) return `<td class="self">—</td>`;
      if (rate === null) return `<td class="none">no games</td>`;
      const alpha = (0.08 + 0.8 * rate).toFixed(2);
      return `<td class="rate" style="background: rgba(38, 139, 77, ${alpha});${
        rate > 0.6 ? " color: #fff;" : ""
      }" data-rate="${rate}" ` +
        `title="${
          e(`${agent} won ${Math.round(rate * matrix.games[i]![j]!)} of ${
            matrix.games[i]![j]
          } games against ${matrix.agents[j]}`)
        }">${formatPercent(rate)}</td>`;
    }).join("");
    return `<tr><th scope="row">${e(agent)}</th>${cells}<td class="average">${
      formatPercent(matrix.average[i])
    }</td></tr>`;
  }).join("");
  return `<div class="table-scroll"><table class="heatmap"><thead><tr><th>row wins vs column</th>${head}<th>AVG</th></tr></thead>` +
    `<tbody>${rows}</tbody></table></div><p class="note">${matrix.total_games} games, each judged in both orders; ` +
    `ties make up the rest of each pair. The two orders disagreed in ${
      formatPercent(matrix.position_bias)
    } of games (the judge's position bias).</p>`;
}

/** RAGElo's table 6 with the bootstrap intervals. */
export function eloTable(ratings: EloRating[]): string {
  if (ratings.length === 0) return `<p class="empty">No Elo ratings: no games were played.</p>`;
  const rows = ratings.map((rating, index) =>
    `<tr><td>${index + 1}</td><th scope="row">${e(rating.agent)}</th><td>${
      formatNumber(rating.score, 1)
    }</td>` +
    `<td>${formatNumber(rating.std, 1)}</td><td>[${formatNumber(rating.ci_low, 1)}, ${
      formatNumber(rating.ci_high, 1)
    }]</td>` +
    `<td>${rating.wins}</td><td>${rating.losses}</td><td>${rating.ties}</td></tr>`
  ).join("");
  return `<div class="table-scroll"><table class="elo"><thead><tr><th>#</th><th>variant</th><th>Elo</th><th>std</th><th>95% CI</th>` +
    `<th>wins</th><th>losses</th><th>ties</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

/** The change against the previous run of the same dataset, regressions first. */
export function comparisonSection(comparison: Comparison | undefined): string {
  if (!comparison || comparison.first_run) {
    return `<p class="empty first-run">First run: there is no earlier run of this dataset and these questions to compare with.</p>`;
  }
  const deltas = [...comparison.deltas].sort((a, b) => Number(b.regression) - Number(a.regression));
  const rows = deltas.map((d) => {
    const digits = d.metric === "speed_chars_per_second" || d.metric === "elo" ? 1 : 3;
    return `<tr class="${d.regression ? "regression" : ""}"><th scope="row">${
      e(d.variant)
    }</th><td>${e(d.metric)}</td>` +
      `<td>${formatNumber(d.previous, digits)}</td><td>${formatNumber(d.current, digits)}</td>` +
      `<td class="${d.delta < 0 ? "down" : d.delta > 0 ? "up" : ""}">${
        formatDelta(d.delta, digits)
      }</td>` +
      `<td>${d.regression ? `⚠ regression: ${e(d.rule)}` : e(d.rule)}</td></tr>`;
  }).join("");
  const headline = comparison.regressions.length
    ? `<p class="bad">${comparison.regressions.length} regression(s) against run ${
      e(comparison.previous_run_id)
    }.</p>`
    : `<p class="good">No regressions against run ${e(comparison.previous_run_id)}.</p>`;
  return `${headline}<p class="note">Previous run: ${e(comparison.previous_run_id)} (${
    e(comparison.previous_created_at)
  }).</p>` +
    `<div class="table-scroll"><table class="deltas"><thead><tr><th>variant</th><th>metric</th><th>previous</th><th>current</th><th>change</th>` +
    `<th>check</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

/**
 * Our protocol beside RAGElo's: Elo from games judged in both orders (a
 * disagreement is a tie) and from the first order's verdict alone, each
 * with its share of ties.
 */
export function protocolNote(tieRates: TieRates, games: number): string {
  if (games === 0) return "";
  return `<p class="note tie-rates">Ties: ${formatPercent(tieRates.both_orders)} of ${games} ` +
    `games judged in both orders (ours: the orders must agree for a win), ` +
    `${formatPercent(tieRates.first_order)} counting only the first order's verdict ` +
    `(RAGElo's protocol: one judgment per game, as in its tables).</p>`;
}

import type { EvaluationReport } from "../types.ts";
import {
  eloChart,
  precisionSimilarityChart,
  qualityCostChart,
  qualitySpeedChart,
} from "./charts.ts";
import { questionDetails } from "./details.ts";
import { escapeHtml as e } from "./escape.ts";
import { glossarySection } from "./glossary.ts";
import { rankingNote } from "./ranking-note.ts";
import { comparisonSection, eloTable, protocolNote, summaryTable, winRateTable } from "./tables.ts";
import { verdictSection } from "./verdict-html.ts";
import { pairedSection } from "./paired-html.ts";
import { reliabilityTable } from "./reliability.ts";

const STYLE = `
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1d2430; margin: 0; background: #f6f7f9; }
main { max-width: 1200px; margin: 0 auto; padding: 24px 28px 48px; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 17px; margin: 28px 0 8px; }
.meta, .note { color: #5b6472; } .note { font-size: 12.5px; }
section, .card { background: #fff; border: 1px solid #e1e4e8; border-radius: 8px; padding: 12px 16px; }
.charts { display: flex; flex-wrap: wrap; gap: 16px; } .charts .card { flex: 1 1 480px; min-width: 0; } .card h3 { margin: 2px 0 6px; font-size: 15px; }
table { border-collapse: collapse; font-size: 13px; margin: 6px 0; }
th, td { border-bottom: 1px solid #e8eaed; padding: 5px 8px; text-align: left; vertical-align: top; }
thead th { background: #f0f2f5; font-weight: 600; }
.summary td, .elo td, .deltas td, .heatmap td { text-align: right; white-space: nowrap; }
section > h3 { margin: 10px 0 2px; font-size: 15px; } section > h3:first-child { margin-top: 2px; }
.heatmap td { min-width: 72px; text-align: center; } .heatmap .self, .heatmap .none { color: #98a1ad; }
.deltas td:nth-child(2), .deltas td:last-child { text-align: left; }
.heatmap .average { font-weight: 600; background: #f0f2f5; }
.ci { color: #6b7480; font-size: 12px; }
.bad, .regression td, .down { color: #b3261e; } .good, .up { color: #1e7b3c; }
.regression { background: #fdecea; }
.answer { max-width: 520px; white-space: pre-wrap; }
details.question { background: #fff; border: 1px solid #e1e4e8; border-radius: 6px; margin: 6px 0; padding: 6px 10px; }
details.question summary { cursor: pointer; }
svg.chart { max-width: 100%; height: auto; font: 12px system-ui, sans-serif; }
svg .grid line { stroke: #e6e8eb; } svg .frame { fill: none; stroke: #b8bec6; }
svg .tick { fill: #5b6472; font-size: 11px; } svg .axis-label { fill: #333b47; font-size: 12px; }
svg .label { fill: #1d2430; font-size: 12px; font-weight: 600; paint-order: stroke; stroke: #fff; stroke-width: 3px; }
svg .error-bar, svg .error-cap { stroke-width: 2; } svg circle.point { stroke: #fff; stroke-width: 1.5; }
svg .interval .error-bar { stroke-width: 4; stroke-linecap: round; opacity: .55; }
svg .frontier { fill: none; stroke: #c0392b; stroke-width: 1.5; stroke-dasharray: 6 4; }
svg .leader { stroke: #8a929d; stroke-width: 1; }
.table-scroll { overflow-x: auto; max-width: 100%; }
.verdict { border-left: 4px solid #1e7b3c; } .verdict[data-certainty="not enough evidence"] { border-left-color: #c98a00; }
.verdict-line { font-size: 15px; margin: 4px 0 8px; }
.badge { display: inline-block; font-size: 12px; font-weight: 600; border-radius: 10px; padding: 1px 8px; margin: 0 4px; }
.badge.clear { background: #e3f4e8; color: #1e7b3c; } .badge.unsure { background: #fdf3d8; color: #8a5d00; }
.verdict-table td { text-align: right; white-space: nowrap; } .verdict-table tr.ship th { color: #1e7b3c; }
.glossary dl { display: grid; grid-template-columns: minmax(160px, 240px) 1fr; gap: 4px 16px; margin: 0; font-size: 13px; }
.glossary dt { font-weight: 600; } .glossary dd { margin: 0; color: #3a4350; }
.ranking-note ul { margin: 4px 0; padding-left: 20px; } .ranking-note p { margin: 4px 0; }
`;

/**
 * The report as one self-contained page: inline CSS and SVG, no script, no
 * external asset, and a Content-Security-Policy that would block any that
 * slipped in. Every value from the run (answers, questions, names) is escaped.
 */
export function renderReportHtml(report: EvaluationReport): string {
  const speed = qualitySpeedChart(report);
  const cost = qualityCostChart(report);
  const variants = report.config.variants.map((variant) => e(variant.name)).join(", ");
  const errors = report.errors.length
    ? `<h2>Errors</h2><section><ul>${
      report.errors.slice(0, 50).map((error) =>
        `<li><code>${e(error.unit)}</code>: ${e(error.message)}</li>`
      ).join("")
    }</ul></section>`
    : "";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>sift evaluation ${e(report.run_id)}</title><style>${STYLE}</style></head>
<body><main>
<h1>sift evaluation: ${e(report.dataset.name)}</h1>
<p class="meta">Run <code>${e(report.run_id)}</code> · ${
    e(report.created_at)
  } · ${report.dataset.questions} questions${
    report.config.repeat > 1 ? ` × ${report.config.repeat} runs each` : ""
  } ·
variants ${variants} · answers by <code>${e(report.config.models.llm)}</code>, judged by
<code>${e(report.config.models.judge)}</code> · ${(report.timing.duration_ms / 1000).toFixed(1)} s
(${report.timing.units.computed} units computed, ${report.timing.units.reused} from checkpoints,
${report.timing.units.failed} failed)</p>
<h2>Verdict</h2>${verdictSection(report)}
<h2>Quality, cost and speed</h2>
<div class="charts">
<div class="card"><h3>Retrieval precision vs answer similarity</h3>${
    precisionSimilarityChart(report)
  }
<p class="note">Error bars: ${e(report.config.ci)}. After REBEL's figure 1 (left).</p></div>
<div class="card"><h3>System quality vs speed</h3>${speed.svg}
<p class="note">${speed.caption} After REBEL's figure 1 (right).</p></div>
<div class="card"><h3>Quality vs cost</h3>${cost.svg}
<p class="note">Error bars: Elo's 95% bootstrap interval. ${cost.caption}</p></div>
</div>
<h2>Per variant</h2><section>${summaryTable(report.summary)}</section>
<h2>Judgments left out and fallbacks</h2><section>${reliabilityTable(report)}</section>
<h2>Pairwise win rates</h2><section>${winRateTable(report.win_rates)}${
    rankingNote(report.win_rates, report.elo)
  }</section>
<h2>Elo ranking</h2><section>${eloChart(report)}${eloTable(report.elo)}
<p class="note">${report.config.elo.tournaments} tournaments over the games in shuffled orders (seed ${report.config.elo.seed}); intervals are percentile bootstraps over the games.</p>
${protocolNote(report.tie_rates, report.win_rates.total_games)}
<h3>RAGElo's protocol: first order only</h3><div class="elo-first-order">${
    eloTable(report.elo_first_order)
  }</div>
<p class="note">The same games, each decided by its first-order verdict alone, as RAGElo judges: comparable to the paper's Elo tables. A judge with position bias wins more games here, and ties fewer.</p></section>
${pairedSection(report.paired)}
<h2>Change against the previous run</h2><section>${comparisonSection(report.comparison)}</section>
${errors}
<h2>What the numbers mean</h2>${glossarySection()}
<h2>Questions</h2>${questionDetails(report.queries, report.config.variants)}
</main></body></html>
`;
}

/** `report.json`: everything the page shows and more, for machines. */
export function renderReportJson(report: EvaluationReport): string {
  return JSON.stringify(report, null, 2) + "\n";
}

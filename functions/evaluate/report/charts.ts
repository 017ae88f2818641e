import { SIMILARITY_SCALE } from "../aggregate.ts";
import type { EvaluationReport } from "../types.ts";
import { colorOf, formatNumber } from "./escape.ts";
import { intervalChart } from "./interval.ts";
import { scatterChart, type ScatterPoint } from "./scatter.ts";

function colors(report: EvaluationReport): Map<string, string> {
  return new Map(report.config.variants.map((variant, index) => [variant.name, colorOf(index)]));
}

function missing(what: string, names: string[]): string {
  return names.length ? `<p class="note">Not plotted (no ${what}): ${names.join(", ")}.</p>` : "";
}

/** REBEL figure 1, left: retrieval precision against answer similarity, 95% error bars both ways. */
export function precisionSimilarityChart(report: EvaluationReport): string {
  const color = colors(report);
  const points: ScatterPoint[] = [];
  const skipped: string[] = [];
  for (const s of report.summary) {
    const [p, a] = [s.retrieval_precision, s.answer_similarity];
    if (!p || !a) {
      skipped.push(s.variant);
      continue;
    }
    points.push({
      label: s.variant,
      color: color.get(s.variant)!,
      x: p.mean,
      y: a.mean,
      xRange: [p.ci_low, p.ci_high],
      yRange: [a.ci_low, a.ci_high],
      title: `${s.variant}: retrieval precision ${formatNumber(p.mean)} [${
        formatNumber(p.ci_low)
      }, ${formatNumber(p.ci_high)}], answer similarity ${formatNumber(a.mean, 2)} [${
        formatNumber(a.ci_low, 2)
      }, ${formatNumber(a.ci_high, 2)}], n = ${p.n}`,
    });
  }
  return scatterChart({
    id: "chart-precision-similarity",
    title: "Retrieval precision vs answer similarity (95% CI)",
    x: {
      label: "retrieval precision (kept passages judged relevant)",
      bounds: [0, 1],
      minSpan: 0.2,
    },
    y: {
      label: `answer similarity (0-${SIMILARITY_SCALE})`,
      bounds: [0, SIMILARITY_SCALE],
      minSpan: 1,
    },
    points,
  }) + missing("reference answers or retrieval judgments", skipped);
}

/** REBEL figure 1, right: system quality against speed, with the trade-off frontier. */
export function qualitySpeedChart(report: EvaluationReport): string {
  const color = colors(report);
  const points: ScatterPoint[] = [];
  const skipped: string[] = [];
  for (const s of report.summary) {
    if (s.system_quality === null || s.runs === 0) {
      skipped.push(s.variant);
      continue;
    }
    points.push({
      label: s.variant,
      color: color.get(s.variant)!,
      x: s.speed_chars_per_second,
      y: s.system_quality,
      title: `${s.variant}: system quality ${formatNumber(s.system_quality)}, speed ${
        formatNumber(s.speed_chars_per_second, 0)
      } output chars/s, mean latency ${formatNumber(s.latency_ms.total, 0)} ms`,
    });
  }
  return scatterChart({
    id: "chart-quality-speed",
    title: "System quality vs speed",
    x: {
      label: "speed (output characters per second, whole pipeline)",
      minSpan: 1,
      fromZero: true,
      bounds: [0, Infinity],
    },
    y: {
      label: "system quality (similarity / 5 × precision)",
      bounds: [0, 1],
      minSpan: 0.1,
    },
    points,
    frontier: true,
  }) + missing("system quality", skipped);
}

/** Elo ratings with their bootstrap intervals, best first. */
export function eloChart(report: EvaluationReport): string {
  if (report.elo.length === 0) return "";
  const color = colors(report);
  return intervalChart({
    id: "chart-elo",
    title: "Elo ratings with 95% bootstrap intervals",
    xLabel: `Elo (${report.config.elo.tournaments} tournaments, K = 32, start 1000)`,
    rows: report.elo.map((rating) => ({
      label: rating.agent,
      color: color.get(rating.agent) ?? colorOf(0),
      value: rating.score,
      low: rating.ci_low,
      high: rating.ci_high,
      title: `${rating.agent}: ${formatNumber(rating.score, 1)} [${
        formatNumber(rating.ci_low, 1)
      }, ${
        formatNumber(rating.ci_high, 1)
      }], ${rating.wins} wins, ${rating.losses} losses, ${rating.ties} ties`,
    })),
  });
}

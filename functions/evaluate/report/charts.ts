import { SIMILARITY_SCALE } from "../aggregate.ts";
import type { EvaluationReport } from "../types.ts";
import { colorOf, escapeHtml, formatNumber } from "./escape.ts";
import { intervalChart } from "./interval.ts";
import { frontierOf, scatterChart, type ScatterPoint } from "./scatter.ts";
import { tokensPerRun } from "./verdict.ts";

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
export function qualitySpeedChart(report: EvaluationReport): { svg: string; caption: string } {
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
  const svg = scatterChart({
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
    frontier: "higher-x",
  }) + missing("system quality", skipped);
  return { svg, caption: frontierCaption(points, "higher-x", "faster") };
}

/** The caption's account of a frontier: who is on it, and what the dashed line means. */
export function frontierCaption(
  points: { label: string; x: number; y: number }[],
  better: "higher-x" | "lower-x",
  trade: string,
): string {
  const frontier = frontierOf(points, better);
  const on = frontier.map((p) => escapeHtml(p.label)).join(", ");
  const spots = new Set(frontier.map((p) => `${p.x},${p.y}`));
  if (spots.size === 0) return "";
  if (spots.size === 1) {
    return `A dashed ring marks the frontier: ${on}, where no other variant is both ${trade} and better.`;
  }
  return `Dashed: the Pareto frontier through ${on} (no other variant is both ${trade} and better).`;
}

function eloPoints(report: EvaluationReport): ScatterPoint[] {
  const color = colors(report);
  const summary = new Map(report.summary.map((s) => [s.variant, s]));
  return report.elo.flatMap((rating) => {
    const s = summary.get(rating.agent);
    if (!s || s.runs === 0) return [];
    const tokens = tokensPerRun(s);
    return [{
      label: rating.agent,
      color: color.get(rating.agent) ?? colorOf(0),
      x: tokens,
      y: rating.score,
      yRange: [rating.ci_low, rating.ci_high] as [number, number],
      title: `${rating.agent}: Elo ${formatNumber(rating.score, 1)} [${
        formatNumber(rating.ci_low, 1)
      }, ${formatNumber(rating.ci_high, 1)}], ${formatNumber(tokens, 0)} tokens per question`,
    }];
  });
}

/** Quality (Elo, 95% interval) against cost (tokens per question), with the Pareto frontier. */
export function qualityCostChart(report: EvaluationReport): { svg: string; caption: string } {
  const points = eloPoints(report);
  if (points.length === 0) return { svg: "", caption: "No pairwise games: no Elo to plot." };
  const svg = scatterChart({
    id: "chart-quality-cost",
    title: "Quality (Elo) vs cost (tokens per question)",
    x: {
      label: "cost (model tokens in + out per question)",
      minSpan: 1,
      fromZero: true,
      bounds: [0, Infinity],
    },
    y: { label: "Elo (both orders, 95% CI)", minSpan: 40 },
    points,
    frontier: "lower-x",
  });
  return { svg, caption: frontierCaption(points, "lower-x", "cheaper") };
}

/** Elo ratings with their bootstrap intervals, best first. */
export function eloChart(report: EvaluationReport): string {
  if (report.elo.length === 0) return "";
  const color = colors(report);
  return intervalChart({
    id: "chart-elo",
    title: "Elo ratings with 95% bootstrap intervals",
    xLabel: `Elo (${report.config.elo.tournaments} tournaments, K = 32, start 500)`,
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

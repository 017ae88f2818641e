import type { EvaluationReport } from "../types.ts";
import { escapeHtml as e, formatNumber, formatPercent } from "./escape.ts";
import { tokensPerRun, type Verdict, verdictOf } from "./verdict.ts";

const names = (variants: string[]) => variants.map((v) => `<b>${e(v)}</b>`).join(", ");

function headline(verdict: Verdict, costOf: (variant: string) => string): string {
  const leader = verdict.rated[0]!;
  const span = `${verdict.measure} 95% interval [${formatNumber(leader.low, 1)}, ${
    formatNumber(leader.high, 1)
  }]`;
  if (verdict.certainty === "clear") {
    return `<p class="verdict-line"><b>Ship ${
      e(verdict.ship)
    }</b> <span class="badge clear">clear</span> ` +
      `Its ${span} lies above every other variant's. It costs ${costOf(verdict.ship!)}.</p>`;
  }
  const worse = verdict.worse.length
    ? ` Clearly below ${e(leader.variant)}: ${names(verdict.worse)}.`
    : "";
  return `<p class="verdict-line"><b>Ship ${e(verdict.ship)}</b> ` +
    `<span class="badge unsure">not enough evidence</span> ` +
    `${e(leader.variant)} rates best, but ${names(verdict.tied.slice(1))} overlap its ${span}: ` +
    `the data cannot order ${names(verdict.tied)}. Of those, ${e(verdict.ship)} costs least ` +
    `(${costOf(verdict.ship!)}); ship it until more questions (<code>--limit</code>, ` +
    `<code>--repeat</code>) separate them.${worse}</p>`;
}

/**
 * The verdict at the top of the page: the variant to ship, how sure the
 * data are, the rule that decided it, and the numbers it used.
 */
export function verdictSection(report: EvaluationReport): string {
  const verdict = verdictOf(report);
  if (verdict.certainty === "unreliable") {
    const list = (verdict.unreliable ?? []).map((u) =>
      `<b>${e(u.variant)}</b> (${formatPercent(u.degraded_share)} of judgments unreadable, ` +
      `${formatPercent(u.fallback_share)} of runs fallen back)`
    ).join(", ");
    return `<section class="verdict" data-certainty="unreliable"><p><b>No winner named</b>: ` +
      `${list} passed the bound of ${formatPercent(verdict.bound ?? null)} ` +
      `(<code>EVAL_MAX_DEGRADED_SHARE</code>). Their numbers leave out or fall back on too much ` +
      `to be compared; see "Judgments left out and fallbacks" below.</p></section>`;
  }
  if (verdict.certainty === "no data") {
    return `<section class="verdict" data-certainty="no data"><p><b>No verdict</b>: no variant ` +
      `was rated (no pairwise games and no answer similarity).</p></section>`;
  }
  const summary = new Map(report.summary.map((s) => [s.variant, s]));
  const costOf = (variant: string) => {
    const s = summary.get(variant);
    return s
      ? `${formatNumber(tokensPerRun(s), 0)} tokens per question, ${
        formatNumber(s.latency_ms.total, 0)
      } ms mean latency`
      : "cost unknown";
  };
  const leader = verdict.rated[0]!;
  const rows = verdict.rated.map((r) => {
    const s = summary.get(r.variant);
    const standing = r === leader
      ? "leader"
      : verdict.tied.includes(r.variant)
      ? "overlaps"
      : "below";
    return `<tr class="${r.variant === verdict.ship ? "ship" : ""}"><th scope="row">${
      e(r.variant)
    }</th>` +
      `<td>${formatNumber(r.value, 1)} <span class="ci">[${formatNumber(r.low, 1)}, ${
        formatNumber(r.high, 1)
      }]</span></td><td>${standing}</td>` +
      `<td>${s ? formatNumber(tokensPerRun(s), 0) : "—"}</td><td>${
        s ? formatNumber(s.latency_ms.total, 0) : "—"
      }</td><td>${s ? formatNumber(s.speed_chars_per_second, 0) : "—"}</td></tr>`;
  }).join("");
  return `<section class="verdict" data-certainty="${verdict.certainty}" data-ship="${
    e(verdict.ship)
  }">` +
    headline(verdict, costOf) +
    `<div class="table-scroll"><table class="verdict-table"><thead><tr><th>variant</th>` +
    `<th>${verdict.measure} [95% CI]</th><th>against the leader</th><th>tokens per question</th>` +
    `<th>mean latency (ms)</th><th>speed (chars/s)</th></tr></thead><tbody>${rows}</tbody></table></div>` +
    `<p class="note rule">The rule: quality is ${
      verdict.measure === "Elo"
        ? "the Elo rating from the pairwise games (both orders)"
        : "answer similarity (no pairwise games were played)"
    }, with its 95% interval. The leader rates best. A variant whose interval [l, h] overlaps the ` +
    `leader's [L, H] (l ≤ H and L ≤ h) cannot be told apart from it. If none overlaps, the leader ` +
    `ships: <i>clear</i>. Otherwise the verdict is <i>not enough evidence</i> and the cheapest of ` +
    `the overlapping variants ships (fewest tokens per question, then lowest mean latency). ` +
    `Overlap is a cautious test: intervals can overlap a little while the difference is real.</p></section>`;
}

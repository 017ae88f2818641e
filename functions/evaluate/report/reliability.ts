import type { EvaluationReport } from "../types.ts";
import { escapeHtml as e, formatPercent } from "./escape.ts";
import { DEFAULT_MAX_DEGRADED_SHARE } from "./verdict.ts";

const JUDGES = ["retrieval", "similarity", "answer", "pairwise"] as const;
/** The pipeline's model steps whose unreadable replies count too (rerank covers ITEM and ToT). */
const STEPS = ["rerank", "rubric", "variations"] as const;

/**
 * Per variant and judge: judgments made and left out (their reply stayed
 * unreadable after a correction, or the judge was unreachable: no score,
 * in no aggregate), and the runs whose pipeline fell back. The shares are
 * what the verdict holds to `EVAL_MAX_DEGRADED_SHARE`.
 */
export function reliabilityTable(report: EvaluationReport): string {
  const bound = report.config.max_degraded_share ?? DEFAULT_MAX_DEGRADED_SHARE;
  const rows = report.summary.map((s) => {
    const r = s.reliability;
    if (!r) return `<tr><th scope="row">${e(s.variant)}</th><td colspan="9">—</td></tr>`;
    const over = (share: number | null) => share !== null && share > bound ? ` class="bad"` : "";
    const judges = JUDGES.map((judge) => {
      const { judged, excluded } = r.judges[judge];
      return `<td>${excluded} / ${judged}</td>`;
    }).join("");
    const steps = STEPS.map((step) => {
      const { judged, excluded } = r.steps?.[step] ?? { judged: 0, excluded: 0 };
      return `<td>${excluded} / ${judged}</td>`;
    }).join("");
    const f = r.fallbacks;
    return `<tr><th scope="row">${e(s.variant)}</th>${judges}${steps}` +
      `<td${over(r.degraded_share)}>${formatPercent(r.degraded_share)}</td>` +
      `<td${over(r.fallback_share)}>${formatPercent(r.fallback_share)} <span class="ci">` +
      `(${f.runs}/${s.runs}: rubric ${f.rubric}, rerank order ${f.rerank_order}, ` +
      `variations ${f.variations})</span></td></tr>`;
  }).join("");
  return `<div class="table-scroll"><table class="reliability"><thead><tr><th>variant</th>` +
    JUDGES.map((judge) => `<th>${judge}: left out / judged</th>`).join("") +
    STEPS.map((step) => `<th>${step} step: unreadable / asked</th>`).join("") +
    `<th>degraded share</th><th>fallback share (runs)</th></tr></thead><tbody>${rows}</tbody>` +
    `</table></div><p class="note">A judgment left out has no score: the judge's reply stayed ` +
    `unreadable after one correction, or the judge could not be reached. It counts in no mean, ` +
    `precision, Elo game or tie. A step's unreadable reply (a rerank score, an ITEM judgment, a ` +
    `ToT score, the rubric, the variations) stayed unreadable after one correction; the ` +
    `degraded share counts both. Above ${
      formatPercent(bound)
    } for any variant (<code>EVAL_MAX_DEGRADED_SHARE</code>) the verdict names no winner.</p>`;
}

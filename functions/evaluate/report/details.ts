import type { QuestionResult, Variant } from "../types.ts";
import { escapeHtml as e, formatNumber } from "./escape.ts";

const MAX_ANSWER_CHARS = 1200;

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** Each question, collapsed: its reference, then every variant's answer, passages and scores. */
export function questionDetails(queries: QuestionResult[], variants: Variant[]): string {
  return queries.map((query) => {
    const rows = variants.map((variant) => {
      const result = query.variants[variant.name];
      const run = result?.run;
      if (!run) {
        return `<tr><th scope="row">${
          e(variant.name)
        }</th><td colspan="4" class="bad">no answer (the run failed)</td></tr>`;
      }
      const passages = run.kept.map((passage) => e(passage.doc_id)).join(", ") || "none";
      return `<tr><th scope="row">${e(variant.name)}</th><td class="answer">${
        e(clip(run.answer, MAX_ANSWER_CHARS))
      }</td>` +
        `<td>${passages}</td><td>${formatNumber(result.retrieval?.precision, 2)}</td>` +
        `<td>${formatNumber(result.similarity?.score, 1)}</td></tr>`;
    }).join("");
    const games = query.games.map((game) =>
      `${e(game.a)} vs ${e(game.b)}: ${
        game.winner === "C" ? "tie" : e(game.winner === "A" ? game.a : game.b)
      }` +
      (game.orders_disagree ? " (orders disagreed)" : "")
    ).join("; ");
    const target = query.target_doc === null
      ? "none (the corpus does not answer it)"
      : e(query.target_doc ?? "—");
    const run = query.repetition === undefined
      ? ""
      : ` <span class="ci">run ${query.repetition}</span>`;
    return `<details class="question"><summary><code>${e(query.id)}</code>${run} ${
      e(query.question)
    }</summary>` +
      `<p><b>Reference:</b> ${
        e(query.reference_answer ?? "—")
      } · <b>target document:</b> ${target}</p>` +
      `<div class="table-scroll"><table><thead><tr><th>variant</th><th>answer</th><th>passages (document)</th><th>precision</th>` +
      `<th>similarity</th></tr></thead><tbody>${rows}</tbody></table></div>` +
      (games ? `<p class="note">Games: ${games}</p>` : "") + `</details>`;
  }).join("");
}

/** Evaluations: opened by id (sift keeps no list of runs to page through); this tab lists the ones it opened. */
import { api, errorText } from "./api.ts";
import { $, el, failure, field, messageOf } from "./dom.ts";
import type { EvaluationJob } from "./wire.ts";

const OPENED = "sift-evaluations";

const opened = (): string[] => JSON.parse(sessionStorage.getItem(OPENED) || "[]");

function listOpened(): void {
  $("#evaluation-list").replaceChildren(
    ...opened().map((id) => {
      const button = el("button", { type: "button", text: id });
      button.addEventListener("click", () => openEvaluation(id));
      return el("li", {}, [button]);
    }),
  );
}

async function openEvaluation(id: string): Promise<void> {
  const out = $("#evaluation-result");
  try {
    const response = await api("/v1/evaluations/" + encodeURIComponent(id));
    if (!response.ok) return out.replaceChildren(failure(await errorText(response)));
    const job = await response.json() as EvaluationJob;
    const ids = opened().filter((other) => other !== id);
    sessionStorage.setItem(OPENED, JSON.stringify([id, ...ids].slice(0, 20)));
    listOpened();
    const progress = job.progress ? " · " + JSON.stringify(job.progress) : "";
    out.replaceChildren(el("section", { class: "part" }, [
      el("h3", { text: id + ": " + job.status + progress }),
      job.status === "done" ? el("a", { href: job.report_url, text: "the report" }) : null,
      job.summary ? el("pre", { text: JSON.stringify(job.summary, null, 2) }) : null,
    ]));
  } catch (error) {
    out.replaceChildren(failure("sift could not be reached: " + messageOf(error)));
  }
}

export function setUpEvaluations(): void {
  const form = $<HTMLFormElement>("#evaluation-form");
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    openEvaluation(field(form, "id").value.trim());
  });
  listOpened();
}

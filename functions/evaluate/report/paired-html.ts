import { pairedSentence, type PairedTest } from "../paired.ts";
import { escapeHtml as e } from "./escape.ts";

/** The paired tests as a list of sentences: who beats whom, by how much, how sure. */
export function pairedSection(tests: readonly PairedTest[] | undefined): string {
  if (!tests || tests.length === 0) return "";
  return `<h2>Paired tests</h2><section><ul>${
    tests.map((test) => `<li>${e(pairedSentence(test))}</li>`).join("")
  }</ul><p class="note">Each pair of variants over the same questions: two-sided paired t-test and Wilcoxon signed-rank test (SciPy's ttest_rel and wilcoxon). "Beats" needs both p-values below 0.05; degraded judgments are left out.</p></section>`;
}

import { analyze } from "../../../shared/text/analyze.ts";
import { parseJudgePrompt, wantsJson } from "./judge-prompt.ts";
import type { OfflineTask } from "./types.ts";

/** Term counts, without bare citation numbers. */
function bag(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const term of analyze(text.replace(/\[\d+\]/g, " "))) {
    counts.set(term, (counts.get(term) ?? 0) + 1);
  }
  return counts;
}

/**
 * Token F1 (SQuAD style, over analyzed terms) between an answer and a
 * reference: 1 for the same terms, 0 for none shared.
 *
 * @example
 * tokenF1("BM25 ranks documents", "BM25 ranks documents"); // 1
 */
export function tokenF1(answer: string, reference: string): number {
  const answerBag = bag(answer);
  const referenceBag = bag(reference);
  let overlap = 0;
  for (const [term, count] of answerBag) overlap += Math.min(count, referenceBag.get(term) ?? 0);
  if (overlap === 0) return 0;
  const size = (counts: Map<string, number>) => [...counts.values()].reduce((s, n) => s + n, 0);
  const precision = overlap / size(answerBag);
  const recall = overlap / size(referenceBag);
  return (2 * precision * recall) / (precision + recall);
}

/** `judge-similarity@1`: token F1 mapped to 0-5, as JSON or a reason then `Score: N`. */
export const judgeSimilarityTask: OfflineTask = {
  reply(input) {
    const { blocks } = parseJudgePrompt(input.user);
    const f1 = tokenF1(blocks.answer ?? "", blocks.reference ?? "");
    const score = Math.round(5 * f1);
    const reason = `The answer and the reference share terms with a token F1 of ${f1.toFixed(2)}.`;
    return wantsJson(input) ? JSON.stringify({ reason, score }) : `${reason}\nScore: ${score}`;
  },
};

import { neutralizeTags } from "../../shared/llm/prompt.ts";
import { renderNumberedDocuments } from "../../core/rerank/render.ts";
import type { JudgeDocument, RelevanceGrade, RetrievalJudgment } from "../../shared/judge/types.ts";

/** A question on one line, since the prompts read `Question:` as a line. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/**
 * Text placed inside the judge prompts: our block tags and the relevance
 * note's label are broken, so a document or an answer cannot close its own
 * block, pose as the other answer, or forge a relevance judgment.
 */
export function neutralizeJudgeText(text: string): string {
  return neutralizeTags(text)
    .replace(/<(\/?)\s*(answer(?:_[ab])?|reference|examples)\b/gi, "<$1 $2")
    .replace(/^(\s*)(relevance note\s*:)/gim, "$1> $2");
}

export const GRADE_LABELS: Readonly<Record<RelevanceGrade, string>> = {
  0: "not relevant",
  1: "somewhat relevant",
  2: "very relevant",
};

/**
 * Documents as `Document N:` blocks numbered by their position in the
 * request, each followed by its retrieval judgment when there is one
 * (RAGElo's include_annotations).
 *
 * @example
 * renderJudgedDocuments([{ document: { text: "BM25 ..." }, index: 2, judgment }]);
 * // "Document 3:\nBM25 ...\nRelevance note: very relevant. States the formula."
 */
export function renderJudgedDocuments(
  entries: readonly { document: JudgeDocument; index: number; judgment?: RetrievalJudgment }[],
): string {
  return entries.map(({ document, index, judgment }) => {
    const block = renderNumberedDocuments([{
      ...document,
      text: neutralizeJudgeText(document.text),
    }])
      .replace(/^Document 1:/, `Document ${index + 1}:`);
    return judgment && judgment.score !== null
      ? `${block}\nRelevance note: ${GRADE_LABELS[judgment.score]}. ${oneLine(judgment.reason)}`
      : block;
  }).join("\n\n");
}

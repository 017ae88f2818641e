import type { JudgeDocument, RetrievalJudgment } from "../../shared/judge/types.ts";
import type { Passage, VariantResult } from "./types.ts";

/** A kept passage as the judges take it. */
export const toDocument = (passage: Passage): JudgeDocument => ({
  id: passage.id,
  text: passage.text,
  ...(passage.metadata ? { metadata: passage.metadata } : {}),
});

/**
 * The passages both answers drew on (each once), with the retrieval judgments
 * renumbered to that list; no judgments when any passage lacks one.
 */
export function sharedEvidence(
  a: VariantResult,
  b: VariantResult,
): { documents: JudgeDocument[]; judgments?: RetrievalJudgment[] } {
  const documents: JudgeDocument[] = [];
  const judgments: RetrievalJudgment[] = [];
  const seen = new Set<string>();
  let complete = true;
  for (const result of [a, b]) {
    result.run?.kept.forEach((passage, position) => {
      if (seen.has(passage.id)) return;
      seen.add(passage.id);
      const judgment = result.retrieval?.judgments.find((entry) => entry.index === position);
      if (judgment) judgments.push({ ...judgment, index: documents.length });
      else complete = false;
      documents.push(toDocument(passage));
    });
  }
  return complete ? { documents, judgments } : { documents };
}

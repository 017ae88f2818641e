import { retrievalPrecision } from "../../shared/judge/precision.ts";
import type {
  JudgeDocument,
  RetrievalEvaluation,
  RetrievalJudgment,
} from "../../shared/judge/types.ts";
import { JUDGED_RETRIEVED, type Passage, type VariantResult, type VariantRun } from "./types.ts";

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

/**
 * What the retrieval judge grades for one run: the kept passages, then those
 * of the first `JUDGED_RETRIEVED` retrieved that were not kept, so a passage
 * both retrieved and kept costs one judgment. `retrievedAt[r]` is where
 * retrieval rank r sits in `documents`; it is absent when a retrieved passage
 * has no text to judge (a run checkpointed before passages kept theirs).
 */
export function judgedPassages(
  run: Pick<VariantRun, "kept" | "retrieved">,
): { documents: JudgeDocument[]; kept: number; retrievedAt?: number[] } {
  const documents = run.kept.map(toDocument);
  const position = new Map(run.kept.map((passage, index) => [passage.id, index]));
  const retrievedAt: number[] = [];
  for (const passage of run.retrieved.slice(0, JUDGED_RETRIEVED)) {
    let at = position.get(passage.id);
    if (at === undefined) {
      if (passage.text === undefined) {
        return { documents: run.kept.map(toDocument), kept: run.kept.length };
      }
      at = documents.length;
      position.set(passage.id, at);
      documents.push({
        id: passage.id,
        text: passage.text,
        ...(passage.metadata ? { metadata: passage.metadata } : {}),
      });
    }
    retrievedAt.push(at);
  }
  return { documents, kept: run.kept.length, retrievedAt };
}

/**
 * The judge's grades of `judgedPassages` split back: the kept passages'
 * (with REBEL's retrieval precision over them) and the first retrieved
 * passages', indexed by retrieval rank.
 */
export function splitRetrievalJudgments(
  evaluation: Pick<RetrievalEvaluation, "judgments" | "degraded">,
  judged: { kept: number; retrievedAt?: number[] },
): NonNullable<VariantResult["retrieval"]> {
  const judgments = evaluation.judgments.filter((judgment) => judgment.index < judged.kept);
  const byIndex = new Map(evaluation.judgments.map((judgment) => [judgment.index, judgment]));
  const retrieved = judged.retrievedAt?.map((at, rank) => {
    const judgment = byIndex.get(at);
    return judgment && { ...judgment, index: rank };
  });
  const complete = retrieved?.every((judgment) => judgment !== undefined);
  return {
    ...retrievalPrecision(judgments),
    judgments,
    ...(complete ? { retrieved_judgments: retrieved as RetrievalJudgment[] } : {}),
    degraded: evaluation.degraded,
  };
}

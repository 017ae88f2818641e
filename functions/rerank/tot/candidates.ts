import type { TotUnit } from "../../../shared/rerank/tot/options.ts";
import type { RerankDocument } from "../../../shared/rerank/types.ts";
import { splitSentences } from "./sentences.ts";

/**
 * The most candidates one tree screens: each costs two scoring calls per
 * level, so a cap keeps a request's cost bounded.
 */
export const MAX_TOT_CANDIDATES = 100;

/** One thing the tree screens: a passage, or a sentence of one. */
export type Candidate = {
  /** Position among the candidates, in retrieval order: the tree's `index`. */
  index: number;
  /** The request's document it is or comes from. */
  document: number;
  text: string;
};

/**
 * The tree's candidates: the documents themselves, or their sentences in
 * document order. Sentences past the cap are left out, and `skipped` says
 * how many.
 *
 * @example
 * toCandidates([{ text: "A b. C d." }], "sentence").candidates.length; // 2
 */
export function toCandidates(
  documents: readonly RerankDocument[],
  unit: TotUnit,
  cap = MAX_TOT_CANDIDATES,
): { candidates: Candidate[]; skipped: number } {
  const all = unit === "passage"
    ? documents.map((document, index) => ({ document: index, text: document.text }))
    : documents.flatMap((document, index) =>
      splitSentences(document.text).map((text) => ({ document: index, text }))
    );
  return {
    candidates: all.slice(0, cap).map((candidate, index) => ({ index, ...candidate })),
    skipped: Math.max(0, all.length - cap),
  };
}

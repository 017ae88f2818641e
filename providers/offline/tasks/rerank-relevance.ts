import { parseNumberedPrompt } from "./numbered.ts";
import { topicality } from "./topicality.ts";
import type { OfflineTask } from "./types.ts";

type Rating = { doc: number; relevance: number; reason: string };

/**
 * Relevance 1-10 for each document that shares at least one of the
 * question's terms, best first (earlier documents first on a tie); the
 * others are left out, as the prompt asks.
 *
 * @example
 * rateRelevance("Document 1:\nBM25 ranks.\n\nDocument 2:\nCats.\n\nQuestion: What is BM25?");
 * // [{ doc: 1, relevance: 10, reason: "..." }]
 */
export function rateRelevance(user: string): Rating[] {
  const { question, documents } = parseNumberedPrompt(user);
  const topics = topicality(question, documents);
  return documents
    .map((document, i) => ({ document, topic: topics[i]! }))
    .filter(({ topic }) => topic.matched.length > 0)
    .map(({ document, topic }) => ({
      doc: document.number,
      // 1 is the scale's floor: a document that shares a term helps "barely", not "not at all".
      relevance: Math.max(1, Math.round(10 * topic.coverage)),
      reason: `Covers ${topic.matched.length} of ${topic.terms.length} question terms ` +
        `(${topic.matched.join(" ")}).`,
    }))
    .sort((a, b) => b.relevance - a.relevance || a.doc - b.doc);
}

/**
 * `rerank-relevance@1`: JSON `{"documents": [{"doc", "relevance"}]}` when
 * asked for JSON, else `Doc: N, Relevance: X` lines; with a reason each when
 * the prompt's format has one.
 */
export const rerankRelevanceTask: OfflineTask = {
  reply({ system, user, json }) {
    const ratings = rateRelevance(user);
    const explain = /"reason":|Reason: </.test(system);
    if (json || system.includes('{"documents"')) {
      return JSON.stringify({
        documents: ratings.map(({ doc, relevance, reason }) => ({
          doc,
          relevance,
          ...(explain ? { reason } : {}),
        })),
      });
    }
    return ratings
      .map(({ doc, relevance, reason }) =>
        `Doc: ${doc}, Relevance: ${relevance}${explain ? `, Reason: ${reason}` : ""}`
      )
      .join("\n");
  },
};

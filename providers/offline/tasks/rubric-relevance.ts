import { queryOf, topicOf } from "./rubric.ts";
import type { OfflineTask } from "./types.ts";

/**
 * A relevance-only rubric (the two-turn relevance baseline): no criteria,
 * a relevance definition built from the query's topic, ties to the
 * retrieval rank.
 *
 * @example
 * relevanceRubricFor("What is BM25?").relevance.definition; // "Contains specific facts ... BM25 ..."
 */
export function relevanceRubricFor(query: string) {
  const topic = topicOf(query);
  return {
    criteria: [],
    relevance: {
      definition: `Contains specific facts or explanations about ${topic} that answer the query; ` +
        `a document that mentions ${topic} only in passing is loosely related.`,
    },
    relevance_threshold: 3,
    tie_break: "retrieval_rank",
  };
}

/** `rubric-relevance@1`: always JSON, as the prompt asks. */
export const rubricRelevanceTask: OfflineTask = {
  reply({ user }) {
    return JSON.stringify(relevanceRubricFor(queryOf(user)));
  },
};

import type { Rubric } from "../shared/rerank/rubric.ts";

/**
 * REBEL's one-turn rubric: five fixed secondary criteria, each weighted 0.5,
 * relevance below 3 discarded, ties to the more authoritative document.
 * Definitions are ours; the criteria and numbers are the paper's (§2.1).
 */
export const oneTurnRubric: Rubric = {
  criteria: [
    {
      name: "depth",
      definition:
        "How thoroughly the document covers the topic: detail, several facets, supporting specifics.",
      high: "Covers the topic in depth from several sides with concrete detail.",
      low: "Mentions the topic only in passing.",
      weight: 0.5,
    },
    {
      name: "diversity",
      definition: "Whether the document represents more than one viewpoint, method or source.",
      high: "Weighs several viewpoints or approaches against each other.",
      low: "Presents a single angle only.",
      weight: 0.5,
    },
    {
      name: "clarity",
      definition: "How clearly and specifically the document states what bears on the question.",
      high: "Precise, unambiguous statements that speak to the question.",
      low: "Vague, generic or hard to follow.",
      weight: 0.5,
    },
    {
      name: "authoritativeness",
      definition:
        "How credible the source is: expert authors, peer review, recognized institutions, citations.",
      high: "A well-cited paper, an official standard or a recognized expert.",
      low: "An unknown or dubious source.",
      weight: 0.5,
    },
    {
      name: "recency",
      definition: "How current the document is, judged by its date and the work it refers to.",
      high: "Recent, reflecting the latest developments.",
      low: "Outdated, or with no sign of when it was written.",
      weight: 0.5,
    },
  ],
  relevance: {
    definition: "How directly the document addresses what the question asks.",
  },
  relevance_threshold: 3,
  tie_break: "authoritativeness",
};

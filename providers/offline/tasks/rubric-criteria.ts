import type { Criterion } from "../../../shared/rerank/rubric.ts";

export type { Criterion };
type Build = (topic: string) => Criterion;

const criterion = (
  name: string,
  weight: number,
  definition: string,
  high: string,
  low: string,
): Criterion => ({ name, definition, high, low, weight });

/**
 * The criteria a kind of query calls for, as in the meta prompt's worked
 * examples, each built around the query's topic so the reranker reads what
 * matters for this query, not a generic quality.
 */
export const CRITERION_BUILDERS: Readonly<Record<string, Build>> = {
  comparative_coverage: (t) =>
    criterion(
      "comparative_coverage",
      1,
      `Discusses ${t} side by side on the same aspects.`,
      `Contrasts ${t} point by point.`,
      "Covers only one of them.",
    ),
  recency: (t) =>
    criterion(
      "recency",
      1.5,
      `Reports recent work on ${t}, from the last few years.`,
      `Covers the latest developments in ${t}.`,
      "Outdated, or undated.",
    ),
  historical_grounding: (t) =>
    criterion(
      "historical_grounding",
      1,
      `Anchors ${t} in dated evidence: when, where, who.`,
      "Specific dates, places and people.",
      "General claims with no evidence.",
    ),
  perspective_balance: (t) =>
    criterion(
      "perspective_balance",
      1.5,
      `Presents the arguments for and against on ${t} fairly.`,
      "Gives the strongest case on each side.",
      "Argues one side only.",
    ),
  evidence: (t) =>
    criterion(
      "evidence",
      1,
      `Supports claims about ${t} with data, studies or cases.`,
      "Cites measured outcomes.",
      "Opinion without evidence.",
    ),
  actionability: (t) =>
    criterion(
      "actionability",
      1.5,
      `Gives concrete, ordered steps, commands and configuration for ${t}.`,
      "Step-by-step instructions that work as written.",
      "Describes the idea without steps.",
    ),
  technical_accuracy: (t) =>
    criterion(
      "technical_accuracy",
      1,
      `Describes ${t} correctly and precisely.`,
      "Correct, precise and current details.",
      "Vague or wrong details.",
    ),
  depth: (t) =>
    criterion(
      "depth",
      0.75,
      `Covers ${t} thoroughly: detail, several facets, specifics.`,
      "Several facets with concrete detail.",
      `Mentions ${t} only in passing.`,
    ),
  authoritativeness: (t) =>
    criterion(
      "authoritativeness",
      0.5,
      `Credible sources on ${t}: experts, peer review, citations.`,
      "A well-cited paper or an official source.",
      "An unknown or dubious source.",
    ),
};

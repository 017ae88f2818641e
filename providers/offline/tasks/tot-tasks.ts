import {
  levelOf,
  type QualityDimension,
  type SimilarityDimension,
} from "../../../shared/rerank/tot/dimensions.ts";
import { halfKeepingThresholds } from "../../../shared/rerank/tot/thresholds.ts";
import { wantsJson } from "./judge-prompt.ts";
import { qualityScore } from "./tot-quality.ts";
import { readAgentPrompt, readScorePrompt, readThresholdPrompt } from "./tot-read.ts";
import { similarityScore } from "./tot-similarity.ts";
import type { OfflineTask } from "./types.ts";

/** The spread of a list of scores (population standard deviation). */
function spread(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
  return Math.sqrt(values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / values.length);
}

/**
 * `tot-agent@2`: the paper's priority rule, applied to the offline
 * heuristics: the dimensions whose scores spread the most across the
 * candidates (the earlier in the list on a tie), as many as the prompt asks.
 */
export const totAgentTask: OfflineTask = {
  reply(input) {
    const { kind, pool, count, query, candidates } = readAgentPrompt(input.system, input.user);
    const score = (name: string, text: string) =>
      kind === "quality"
        ? qualityScore(name as QualityDimension, text)
        : similarityScore(name as SimilarityDimension, query, text);
    const chosen = pool
      .map((name, order) => ({
        name,
        order,
        spread: spread(candidates.map((t) => score(name, t))),
      }))
      .sort((x, y) => y.spread - x.spread || x.order - y.order)
      .map((entry) => entry.name)
      .slice(0, count);
    return wantsJson(input)
      ? JSON.stringify({ dimensions: chosen })
      : `Dimensions: ${chosen.join(", ")}`;
  },
};

/** `tot-quality@1` and `tot-similarity@1`: the heuristic's score, alone or as `{"score"}`. */
export const totScoreTask: OfflineTask = {
  reply(input) {
    const { dimension, query, text } = readScorePrompt(input.user);
    const score = dimension === undefined
      ? 0
      : levelOf(dimension) === "similarity"
      ? similarityScore(dimension as SimilarityDimension, query, text)
      : qualityScore(dimension as QualityDimension, text);
    return wantsJson(input) ? JSON.stringify({ score }) : String(score);
  },
};

/**
 * `tot-threshold@1`: thresholds at the weakest of the best half by mean
 * score, so about half or more go on, as `name: x` lines or JSON.
 */
export const totThresholdTask: OfflineTask = {
  reply(input) {
    const { dimensions, rows } = readThresholdPrompt(input.user);
    const thresholds = halfKeepingThresholds(rows, dimensions);
    return wantsJson(input)
      ? JSON.stringify({ thresholds })
      : dimensions.map((name) => `${name}: ${thresholds[name]}`).join("\n");
  },
};

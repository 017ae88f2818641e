import { z } from "zod";
import { QUALITY_DIMENSIONS, SIMILARITY_DIMENSIONS } from "./dimensions.ts";
import { TOT_UNITS } from "./options.ts";

const dimension = z.enum([...QUALITY_DIMENSIONS, ...SIMILARITY_DIMENSIONS]);
const scores = z.record(z.string(), z.number().min(0).max(1));

/** One level of `tree`: exactly the candidates that reached it. */
const totLevelSchema = z.object({
  kind: z.enum(["quality", "similarity"]).meta({
    description: "Level 1 judges text quality, level 2 similarity to the query",
  }),
  dimensions: z.array(dimension).min(1).max(5).meta({
    description: "The level's dimensions, `tot.dimensions_per_level` of them (2 by default)",
  }),
  chosen_by: z.enum(["request", "agent", "default"]).meta({
    description: "Pinned by the request, picked by the agent, or the default pair when the " +
      "agent's reply was unusable",
  }),
  thresholds: scores.meta({
    description: "One per dimension; a candidate goes on at or above all",
  }),
  candidates: z.array(z.object({
    index: z.number().int().meta({
      description: "The document (passage unit) or the sentence in `tree.sentences`",
    }),
    scores,
    kept: z.boolean(),
    degraded: z.literal(true).optional().meta({
      description: "A score stayed unusable after a correction: it is missing from `scores` " +
        "(never 0), and the candidate follows the ranked ones with no score",
    }),
  })),
  degraded: z.literal(true).optional().meta({
    description: "No candidate met every threshold (the best half by mean score went on), " +
      "or a reply was unusable",
  }),
});

/** `tree` of a `/v1/rerank` reply with strategy tot. */
export const totTreeSchema = z.object({
  unit: z.enum(TOT_UNITS),
  sentences: z.array(z.object({ document: z.number().int(), text: z.string() })).optional()
    .meta({ description: "Sentence unit: the candidates, each with its source document" }),
  levels: z.array(totLevelSchema),
});

/** What a tot result adds with the sentence unit. */
export const totResultFields = {
  sentence: z.string().optional().meta({
    description: "Strategy tot, sentence unit: the kept sentence (from document `index`)",
  }),
  candidate: z.number().int().optional().meta({
    description: "Strategy tot, sentence unit: the sentence's position in `tree.sentences`",
  }),
};

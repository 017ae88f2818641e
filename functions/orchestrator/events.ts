import { z } from "zod";
import {
  answerDeltaSchema,
  answerEndSchema,
  discardedSchema,
  doneSchema,
  fusedHitSchema,
  queryVariationSchema,
  rerankResultSchema,
  rubricBodySchema,
  searchHitSchema,
  streamErrorSchema,
} from "../../shared/responses.ts";
import { ITEM_STOP_REASONS, itemIterationSchema } from "../../shared/rerank/item-options.ts";
import { totResultFields, totTreeSchema } from "../../shared/rerank/tot/schema.ts";
import type { Answered, Reranked } from "./steps.ts";

/** The events of `POST /v1/query`, by name, each with the JSON its `data:` line holds. */
export const QUERY_EVENTS = {
  "retrieval-end": z.object({
    queries: z.array(queryVariationSchema),
    results: z.array(z.union([fusedHitSchema, searchHitSchema])),
    degraded: z.literal(true).optional(),
    reason: z.string().optional().meta({
      description: "Why retrieval degraded: BM25 alone (embeddings failed), or no variations",
    }),
  }),
  "rubric-end": z.object({ rubric: rubricBodySchema, degraded: z.boolean().optional() }),
  "rerank-end": z.object({
    results: z.array(rerankResultSchema.extend({
      doc_id: z.string().optional(),
      title: z.string().optional(),
      ...totResultFields,
    })),
    discarded: z.array(discardedSchema),
    degraded: z.boolean(),
    warnings: z.array(z.string()).optional(),
    /** Strategy item: the judging aids; the pseudo-answers are never the pipeline's answer. */
    iterations: z.array(itemIterationSchema).optional(),
    stop_reason: z.enum(ITEM_STOP_REASONS).optional(),
    /** Strategy tot: each level's dimensions, thresholds and candidates. */
    tree: totTreeSchema.optional(),
  }),
  "answer-delta": answerDeltaSchema,
  "answer-end": answerEndSchema,
  usage: z.object({
    steps: z.array(z.object({
      name: z.string(),
      started_ms: z.number(),
      ended_ms: z.number(),
      tokens_in: z.number().int(),
      tokens_out: z.number().int(),
      via: z.enum(["in-process", "binding", "http"]),
      cost_usd: z.number().nullable().meta({
        description: "USD at the price table's rates (docs/tracing.md); null: no known price",
      }),
    })),
    total_ms: z.number(),
    cost_usd: z.number().nullable().meta({ description: "The steps' sum; null if any is unknown" }),
  }),
  error: streamErrorSchema,
  done: doneSchema,
};

type WireData = { [Name in keyof typeof QUERY_EVENTS]: z.input<(typeof QUERY_EVENTS)[Name]> };

/** The rerank function's reply without its usage and rubric, each result with its chunk's title. */
type RerankEnd = Pick<Reranked, "discarded" | "degraded" | "warnings"> & {
  results: (Reranked["results"][number] & { doc_id: string | undefined; title: unknown })[];
  [field: string]: unknown;
};

/**
 * Each event's payload as the orchestrator sends it. The schemas above say
 * what is on the wire; three events forward another function's reply, of
 * which the orchestrator checks only what it uses (steps.ts), so for them the
 * type is that checked part and the rest passes through as the step sent it.
 */
export type QueryEventData = Omit<WireData, "rubric-end" | "rerank-end" | "answer-end"> & {
  "rubric-end": { rubric: unknown; degraded?: boolean };
  "rerank-end": RerankEnd;
  "answer-end": Answered;
};

/**
 * `send`'s arguments: an event's name and its payload, as a union, so a
 * handler that checks the name has the payload's type without a cast.
 */
export type QueryEventArgs = {
  [Name in keyof QueryEventData]: [event: Name, data: QueryEventData[Name]];
}[keyof QueryEventData];

/** Sends one event of `POST /v1/query`'s stream. */
export type SendQueryEvent = (...args: QueryEventArgs) => Promise<void>;

/** Final scores by chunk id from a `rerank-end` event: a source's score is its rerank's. */
export function rerankScores(data: RerankEnd): Map<string, number> {
  const scores = new Map<string, number>();
  for (const result of data.results) {
    if (typeof result.id === "string" && typeof result.relevance_score === "number") {
      scores.set(result.id, result.relevance_score);
    }
  }
  return scores;
}

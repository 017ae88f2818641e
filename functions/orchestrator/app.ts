import type { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../shared/http/server.ts";
import { eventStream } from "../../shared/http/sse.ts";
import { readJson } from "../../shared/http/validate.ts";
import { LIMITS } from "../../shared/limits.ts";
import {
  metadataFilterSchema,
  namespaceSchema,
  querySchema,
  searchModeSchema,
  topKSchema,
  withoutReservedKeys,
} from "../../shared/schemas.ts";
import { StepClock } from "../../shared/steps/clock.ts";
import { DEFAULT_BATCH_SIZE } from "../../shared/rerank/batch.ts";
import {
  checkStrategyFit,
  defaultTopN,
  rerankStrategySchema,
} from "../../shared/rerank/strategies.ts";
import { itemOptionsSchema } from "../../shared/rerank/item-options.ts";
import { totOptionsSchema } from "../../shared/rerank/tot/options.ts";
import { runQuery } from "./query.ts";
import { CROSS_ENCODER_MODELS } from "../../shared/rerank/cross-encoder.ts";
import { describe, events } from "../../shared/http/openapi.ts";
import { QUERY_EVENTS } from "./events.ts";

/** `pipeline` of `POST /v1/query`; the chat presets are bodies of this schema too. */
export const pipelineSchema = z.strictObject({
  retrieval: z.strictObject({
    mode: searchModeSchema.default("hybrid"),
    /** Defaults to 5, or 10 when a rerank step follows (the REBEL setup: retrieve 10, keep 3). */
    top_k: topKSchema.optional(),
    fusion: z.union([
      z.boolean().transform((on) => (on ? 4 : 0)),
      z.number().int().min(0).max(LIMITS.queryVariations),
      z.strictObject({ variations: z.number().int().min(0).max(LIMITS.queryVariations).default(4) })
        .transform((fusion) => fusion.variations),
    ], { error: "must be true, false, a number of variations, or {variations}" }).default(0),
  }).prefault({}),
  rerank: z.strictObject({
    strategy: rerankStrategySchema(),
    /** Default 3 (REBEL's keep-3); strategy tot keeps every survivor unless a cut is asked for. */
    top_n: z.number().int().min(1).max(LIMITS.topK).optional(),
    batch_size: z.number().int().min(1).max(LIMITS.rerankBatchSize).default(DEFAULT_BATCH_SIZE),
    explain: z.boolean().default(false),
    /** Default 0.5 per criterion (REBEL); `"rubric"`: a generated rubric's own weights. */
    weights: withoutReservedKeys(
      z.union([
        z.number().min(0).max(2),
        z.record(z.string(), z.number().min(0).max(2)),
        z.literal("rubric"),
      ]),
      "is a reserved name, not a criterion",
    ).optional(),
    /** Strategy item's options (ITEM): variant, answer, judgment, m, answer_stop. */
    item: itemOptionsSchema.optional(),
    /** Strategy tot's options (ToT-RAG): pinned dimensions per level, passage or sentence unit. */
    tot: totOptionsSchema.optional(),
    /** A cross-encoder first stage (Workers AI) keeps `top_n` of the retrieved before the LLM. */
    prefilter: z.strictObject({
      model: z.enum(CROSS_ENCODER_MODELS, {
        error: `must be one of ${CROSS_ENCODER_MODELS.join(", ")}`,
      }),
      top_n: z.number().int().min(1).max(LIMITS.topK),
    }).optional(),
  }).superRefine(checkStrategyFit()).optional(),
  namespace: namespaceSchema,
  filter: metadataFilterSchema.optional(),
  /** Runs every step one after another: a baseline for measuring the concurrent pipeline. */
  sequential: z.boolean().default(false),
}).transform(({ retrieval, rerank, ...pipeline }) => ({
  ...pipeline,
  retrieval: { ...retrieval, top_k: retrieval.top_k ?? (rerank ? 10 : 5) },
  // ToT-RAG keeps what passes both levels' thresholds (paper 003 §3.3): no cut of its own.
  rerank: rerank &&
    { ...rerank, top_n: rerank.top_n ?? defaultTopN(rerank.strategy, LIMITS.topK) },
}));

const querySchemaBody = z.strictObject({
  query: querySchema,
  pipeline: pipelineSchema.prefault({}),
});

/** `POST /v1/query`: the whole pipeline as a stream of events. */
export function mountOrchestrator(app: Hono<AppEnv>): void {
  app.post(
    "/v1/query",
    describe({
      tag: "orchestrator",
      summary: "The whole pipeline as a stream of events",
      description: "Retrieve (or RAG-Fusion), optionally rerank, answer. `top_k` defaults to 5, " +
        "or 10 with a rerank step (retrieve 10, keep 3). Two-turn rubrics are generated while " +
        "retrieval runs; `sequential: true` runs every step one after another. A client that " +
        "disconnects cancels the upstream LLM calls.",
      body: querySchemaBody,
      responses: {
        200: events(
          "`retrieval-end`, then with a rerank step `rubric-end` and `rerank-end`, then " +
            "`answer-delta`..., `answer-end`, `usage`, `done`; `error` (then `done`) if a step " +
            "fails after the stream opened",
          QUERY_EVENTS,
        ),
      },
    }),
    async (c) => {
      const clock = new StepClock();
      const body = await readJson(c, querySchemaBody, { maxBytes: LIMITS.bodyBytes });
      return eventStream(
        c,
        (send, signal) => runQuery({ ...c.var.steps, signal }, body, send, clock),
      );
    },
  );
}

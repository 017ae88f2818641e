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
} from "../../shared/schemas.ts";
import { StepClock } from "../../shared/steps.ts";
import { runQuery } from "./query.ts";

const pipelineSchema = z.object({
  retrieval: z.object({
    mode: searchModeSchema.default("hybrid"),
    top_k: topKSchema.default(5),
    fusion: z.union([
      z.boolean().transform((on) => (on ? 4 : 0)),
      z.number().int().min(0).max(LIMITS.queryVariations),
      z.object({ variations: z.number().int().min(0).max(LIMITS.queryVariations).default(4) })
        .transform((fusion) => fusion.variations),
    ], { error: "must be true, false, a number of variations, or {variations}" }).default(0),
  }).default({ mode: "hybrid", top_k: 5, fusion: 0 }),
  namespace: namespaceSchema,
  filter: metadataFilterSchema.optional(),
});

const querySchemaBody = z.object({
  query: querySchema,
  pipeline: pipelineSchema.default({
    retrieval: { mode: "hybrid", top_k: 5, fusion: 0 },
    namespace: "default",
  }),
});

/** `POST /v1/query`: the whole pipeline as a stream of events. */
export function mountOrchestrator(app: Hono<AppEnv>): void {
  app.post("/v1/query", async (c) => {
    const clock = new StepClock();
    const body = await readJson(c, querySchemaBody, { maxBytes: LIMITS.bodyBytes });
    return eventStream(c, (send, signal) => runQuery(c.var.deps, body, send, signal, clock));
  });
}

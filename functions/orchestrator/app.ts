import type { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../shared/http/app-env.ts";
import { eventStream } from "../../shared/http/sse.ts";
import { readJson } from "../../shared/http/validate.ts";
import { LIMITS } from "../../shared/limits.ts";
import { querySchema } from "../../shared/schemas.ts";
import { StepClock } from "../../shared/steps/clock.ts";
import { pipelineSchema } from "../../shared/pipeline.ts";
import { runQuery } from "./query.ts";
import { describe, events } from "../../shared/http/openapi.ts";
import { QUERY_EVENTS } from "./events.ts";

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

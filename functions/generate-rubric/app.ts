import type { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../shared/http/app-env.ts";
import { readJson } from "../../shared/http/validate.ts";
import { LIMITS } from "../../shared/limits.ts";
import { querySchema } from "../../shared/schemas.ts";
import { generateRubric } from "../../core/rerank/generate-rubric.ts";
import { describe, json } from "../../shared/http/openapi.ts";
import { rubricResponseSchema } from "./responses.ts";

const rubricRequestSchema = z.strictObject({
  query: querySchema,
  relevance_only: z.boolean({ error: "must be true or false" }).default(false),
  weights: z.literal("rubric", { error: 'must be "rubric" or left out' }).optional().meta({
    description: 'Left out: every criterion weighs 0.5, as in REBEL. `"rubric"`: the ' +
      "weights the model chose for this query.",
  }),
});

/** `POST /v1/rubrics`: REBEL's meta prompt, the rubric and the reranking prompt it renders to. */
export function mountGenerateRubric(app: Hono<AppEnv>): void {
  app.post(
    "/v1/rubrics",
    describe({
      tag: "generate-rubric",
      summary: "A rubric from the query alone (REBEL's meta prompt)",
      description: "Cached per normalized query, prompt version and model. " +
        "`relevance_only` asks for a query-specific definition of relevance and no criteria. " +
        'Criteria weigh 0.5 each (REBEL\'s setting) unless `weights` is `"rubric"`.',
      body: rubricRequestSchema,
      responses: { 200: json("The rubric and its prompt", rubricResponseSchema) },
      errors: [502],
    }),
    async (c) => {
      const body = await readJson(c, rubricRequestSchema, { maxBytes: LIMITS.bodyBytes });
      const generated = await generateRubric(c.var.deps, body.query, {
        relevanceOnly: body.relevance_only,
        rubricWeights: body.weights === "rubric",
        signal: c.req.raw.signal,
      });
      return c.json({
        rubric: generated.rubric,
        prompt: generated.prompt,
        cached: generated.cached,
        degraded: generated.degraded,
        ...(generated.repairs.length ? { repairs: generated.repairs } : {}),
        usage: generated.usage,
      });
    },
  );
}

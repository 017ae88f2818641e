import { z } from "zod";
import { rubricBodySchema, tokenUsageSchema } from "../../shared/responses.ts";

/** `POST /v1/rubrics`. */
export const rubricResponseSchema = z.object({
  rubric: rubricBodySchema,
  prompt: z.string().meta({ description: "The reranking prompt the rubric renders to" }),
  cached: z.boolean(),
  degraded: z.boolean().meta({
    description: "True when the model's rubric was unusable and the one-turn rubric stands in",
  }),
  repairs: z.array(z.string()).optional().meta({
    description: "What was wrong with the model's rubric and how it was fixed",
  }),
  usage: tokenUsageSchema,
});

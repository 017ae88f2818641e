import { z } from "zod";
import { discardedSchema, rerankResultSchema, rubricBodySchema } from "../../shared/responses.ts";
import { ITEM_STOP_REASONS, itemIterationSchema } from "../../shared/rerank/item-options.ts";
import { totResultFields, totTreeSchema } from "../../shared/rerank/tot/schema.ts";

/** `POST /v1/rerank`. */
export const rerankResponseSchema = z.object({
  results: z.array(rerankResultSchema.extend(totResultFields)).meta({
    description: "Best first, at most `top_n`",
  }),
  discarded: z.array(discardedSchema).meta({
    description: "Documents below the rubric's relevance threshold",
  }),
  rubric: rubricBodySchema.optional(),
  usage: z.object({
    tokens_in: z.number().int(),
    tokens_out: z.number().int(),
    llm_calls: z.number().int(),
    cached: z.boolean(),
    cost_usd: z.number().nullable().optional().meta({
      description: "With `model` or `prefilter`: USD over both models at the price table's " +
        "rates (null: no known price); otherwise the orchestrator prices the tokens",
    }),
  }),
  model: z.string().optional().meta({ description: "With `model`: the cross-encoder that ranked" }),
  prefilter: z.object({ model: z.string(), kept: z.number().int(), of: z.number().int() })
    .optional().meta({ description: "With `prefilter`: how many documents its first stage kept" }),
  degraded: z.boolean().meta({
    description: "True when a batch kept retrieval order because its scoring failed",
  }),
  warnings: z.array(z.string()).optional(),
  iterations: z.array(itemIterationSchema).optional().meta({
    description: "Strategy item: each iteration's pseudo-answer, ranking and utility set",
  }),
  stop_reason: z.enum(ITEM_STOP_REASONS).optional().meta({
    description: "Strategy item: why the iterations stopped",
  }),
  tree: totTreeSchema.optional().meta({
    description: "Strategy tot: each level's dimensions, thresholds and candidates",
  }),
  readings: z.object({
    asked: z.number().int().meta({
      description: "Values asked of the model: document scores, ToT scores, ITEM judgments",
    }),
    unreadable: z.number().int().meta({
      description: "Of those, replies still unreadable after one correction turn: no score, " +
        "never 0; counted in the evaluation's degraded share",
    }),
  }).optional(),
});

/** `POST /v2/rerank`: Cohere v2's shape, and `discarded`, sift's extension. */
export const cohereRerankResponseSchema = z.object({
  id: z.string(),
  results: z.array(z.object({
    index: z.number().int(),
    relevance_score: z.number().min(0).max(1),
    document: z.union([z.object({ text: z.string() }), z.record(z.string(), z.string())])
      .optional().meta({ description: "With `return_documents: true`: the document as sent" }),
  })).meta({ description: "Best first: `min(top_n, documents.length)` of them" }),
  meta: z.object({
    api_version: z.object({ version: z.string() }),
    billed_units: z.object({ search_units: z.number() }),
    warnings: z.array(z.string()).optional(),
  }),
  discarded: z.array(z.object({ index: z.number().int(), reason: z.string() })).meta({
    description: "sift's extension: the documents the strategy discarded and why; unless " +
      '`discarded: "omit"`, they are in `results` after every kept one',
  }),
});

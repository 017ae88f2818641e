import { z } from "zod";

export { openAIErrorSchema } from "../../../shared/responses.ts";

/*
 * OpenAI's shapes as sift fills them, for `/openapi.json`: a chat completion,
 * its streamed chunks, the model list and the error body.
 */

export const modelSchema = z.object({
  id: z.string(),
  object: z.literal("model"),
  created: z.number().int(),
  owned_by: z.string(),
});

export const modelListSchema = z.object({ object: z.literal("list"), data: z.array(modelSchema) });

const urlCitationSchema = z.object({
  type: z.literal("url_citation"),
  url_citation: z.object({
    url: z.string().meta({ description: "The document's url, or a `sift:` URI naming the chunk" }),
    title: z.string(),
    start_index: z.number().int(),
    end_index: z.number().int(),
  }),
}).meta({ description: "Covers one `[n]` marker of the content" });

const usageSchema = z.object({
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  total_tokens: z.number().int(),
  cost_usd: z.number().nullable().meta({
    description: "sift's addition: USD over every step (docs/tracing.md); null: no known price",
  }),
});

/** The passages the answer was given, `[n]` being `sources[n - 1]`. */
export const sourcesSchema = z.array(z.object({
  index: z.number().int(),
  id: z.string(),
  doc_id: z.string(),
  title: z.string().optional(),
  text: z.string(),
  url: z.string().optional(),
  section: z.string().optional().meta({ description: "The chunk's heading path, `A > B`" }),
  page: z.number().int().optional(),
  page_end: z.number().int().optional(),
  label: z.string().meta({ description: "Title, section and page: `RoBERTa, §4.1, p. 6`" }),
  score: z.number(),
}));

export const siftSchema = z.looseObject({
  query: z.string().meta({ description: "The standalone question the pipeline answered" }),
  rewritten: z.boolean(),
  steps: z.array(z.looseObject({ name: z.string() })),
});

const head = {
  id: z.string(),
  created: z.number().int(),
  model: z.string(),
};

export const chatCompletionSchema = z.object({
  ...head,
  object: z.literal("chat.completion"),
  choices: z.array(z.object({
    index: z.number().int(),
    message: z.object({
      role: z.literal("assistant"),
      content: z.string(),
      refusal: z.null(),
      annotations: z.array(urlCitationSchema),
    }),
    logprobs: z.null(),
    finish_reason: z.literal("stop"),
  })),
  usage: usageSchema,
  sources: sourcesSchema,
  sift: siftSchema,
});

export const chatCompletionChunkSchema = z.object({
  ...head,
  object: z.literal("chat.completion.chunk"),
  choices: z.array(z.object({
    index: z.number().int(),
    delta: z.object({
      role: z.literal("assistant").optional(),
      content: z.string().optional(),
      annotations: z.array(urlCitationSchema).optional(),
    }),
    logprobs: z.null(),
    finish_reason: z.literal("stop").nullable(),
  })),
  usage: usageSchema.nullable().optional().meta({
    description:
      "With `stream_options.include_usage`: null, then set on a last chunk with no choices",
  }),
  sources: sourcesSchema.optional().meta({ description: "On the chunk with the annotations" }),
  sift: siftSchema.optional(),
});

import { z } from "zod";
import { openAIErrorSchema, siftSchema, sourcesSchema } from "../openai/schemas.ts";

/*
 * The Responses API's shapes as sift fills them, for `/openapi.json`: the
 * `response` object and the events of its stream.
 */

const citationSchema = z.object({
  type: z.literal("url_citation"),
  url: z.string().meta({ description: "The document's url, or a `sift:` URI naming the chunk" }),
  title: z.string(),
  start_index: z.number().int(),
  end_index: z.number().int(),
}).meta({ description: "Covers one `[n]` marker of the text" });

const fileCitationSchema = z.object({
  type: z.literal("file_citation"),
  file_id: z.string(),
  filename: z.string(),
  index: z.number().int().meta({ description: "Where its `[n]` marker starts in the text" }),
}).meta({ description: "With `file_search`: one per `[n]` marker, naming the file cited" });

const annotationSchema = z.union([citationSchema, fileCitationSchema]);

const outputTextSchema = z.object({
  type: z.literal("output_text"),
  text: z.string(),
  annotations: z.array(annotationSchema),
  logprobs: z.array(z.never()),
});

const messageSchema = z.object({
  type: z.literal("message"),
  id: z.string(),
  status: z.enum(["in_progress", "completed"]),
  role: z.literal("assistant"),
  content: z.array(outputTextSchema),
});

const fileSearchCallSchema = z.object({
  type: z.literal("file_search_call"),
  id: z.string(),
  status: z.enum(["in_progress", "completed"]),
  queries: z.array(z.string()),
  results: z.array(z.object({
    file_id: z.string(),
    filename: z.string(),
    score: z.number(),
    attributes: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
    text: z.string(),
  })).nullable().meta({ description: 'With `include: ["file_search_call.results"]`' }),
});

const outputItemSchema = z.union([messageSchema, fileSearchCallSchema]);

const usageSchema = z.object({
  input_tokens: z.number().int(),
  input_tokens_details: z.object({ cached_tokens: z.number().int() }),
  output_tokens: z.number().int(),
  output_tokens_details: z.object({ reasoning_tokens: z.number().int() }),
  total_tokens: z.number().int(),
  cost_usd: z.number().nullable().meta({
    description: "sift's addition: USD over every step (docs/tracing.md); null: no known price",
  }),
});

export const responseSchema = z.object({
  id: z.string(),
  object: z.literal("response"),
  created_at: z.number().int(),
  status: z.enum(["in_progress", "completed"]),
  completed_at: z.number().int().optional(),
  error: z.null(),
  incomplete_details: z.null(),
  instructions: z.null(),
  metadata: z.object({}),
  model: z.string(),
  output: z.array(outputItemSchema).meta({
    description: "With `file_search`, its `file_search_call` first, then the message",
  }),
  output_text: z.string().optional().meta({ description: "The message's text, once completed" }),
  parallel_tool_calls: z.boolean(),
  previous_response_id: z.null(),
  store: z.literal(false),
  temperature: z.null(),
  tool_choice: z.enum(["none", "auto"]),
  tools: z.array(z.looseObject({ type: z.literal("file_search") })),
  top_p: z.null(),
  truncation: z.literal("disabled"),
  usage: usageSchema.nullable(),
  sources: sourcesSchema.optional().meta({
    description: "The passages, `[n]` being `sources[n - 1]`",
  }),
  sift: siftSchema.optional(),
});

/** The message is output 0, or 1 after a `file_search_call`. */
const outputIndex = z.number().int().min(0).max(1);

const at = {
  sequence_number: z.number().int(),
  item_id: z.string(),
  output_index: outputIndex,
  content_index: z.literal(0),
};

const fileSearchEvent = z.object({
  sequence_number: z.number().int(),
  item_id: z.string(),
  output_index: z.literal(0),
});

/** Every event of the stream but its `type`, by that type (also the SSE `event:` name). */
const EVENT_FIELDS = {
  "response.created": z.object({ sequence_number: z.number().int(), response: responseSchema }),
  "response.in_progress": z.object({ sequence_number: z.number().int(), response: responseSchema }),
  "response.output_item.added": z.object({
    sequence_number: z.number().int(),
    output_index: outputIndex,
    item: outputItemSchema,
  }),
  "response.file_search_call.in_progress": fileSearchEvent,
  "response.file_search_call.searching": fileSearchEvent,
  "response.file_search_call.completed": fileSearchEvent,
  "response.content_part.added": z.object({ ...at, part: outputTextSchema }),
  "response.output_text.delta": z.object({
    ...at,
    delta: z.string(),
    logprobs: z.array(z.never()),
  }),
  "response.output_text.annotation.added": z.object({
    ...at,
    annotation_index: z.number().int(),
    annotation: annotationSchema,
  }),
  "response.output_text.done": z.object({ ...at, text: z.string(), logprobs: z.array(z.never()) }),
  "response.content_part.done": z.object({ ...at, part: outputTextSchema }),
  "response.output_item.done": z.object({
    sequence_number: z.number().int(),
    output_index: outputIndex,
    item: outputItemSchema,
  }),
  "response.completed": z.object({ sequence_number: z.number().int(), response: responseSchema }),
  error: z.object({
    sequence_number: z.number().int(),
    ...openAIErrorSchema.shape.error.shape,
  }).meta({ description: "A failure after the stream opened; the stream ends" }),
};

/** Every event of the stream, by its `type`, which its data repeats. */
export const RESPONSE_EVENTS: Record<string, z.ZodType> = Object.fromEntries(
  Object.entries(EVENT_FIELDS).map((
    [type, fields],
  ) => [type, z.object({ type: z.literal(type), ...fields.shape })]),
);

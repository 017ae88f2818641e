import { z } from "zod";
import { metadataFilterSchema, namespaceSchema, querySchema } from "../../../shared/schemas.ts";
import { ChatRequestError } from "../openai/errors.ts";
import { type Conversation, toolsSchema, type Turn } from "../openai/conversation.ts";
import { responsesTextSchema } from "../openai/output-format.ts";

const MAX_ITEMS = 1000;

/** A text part: `input_text` in what a caller wrote, `output_text` in an earlier answer. */
const textPartSchema = z.looseObject({
  type: z.enum(["input_text", "output_text"], {
    error: 'only "input_text" and "output_text" parts are supported',
  }),
  text: z.string({ error: "must be a string" }),
});

/**
 * A message's content as one string: a string, or text parts joined by lines.
 * Strings become a part first, not a union option, so a bad part's own error
 * (`input.0.content.1.type: ...`) reaches the caller.
 */
const contentSchema = z.preprocess(
  (content) => (typeof content === "string" ? [{ type: "input_text", text: content }] : content),
  z.array(textPartSchema, { error: "must be a string or an array of input_text parts" }),
).transform((parts) => parts.map((part) => part.text).join("\n"));

const messageSchema = z.looseObject({
  type: z.literal("message").optional(),
  role: z.enum(["system", "developer", "user", "assistant"], {
    error: "must be system, developer, user or assistant",
  }),
  content: contentSchema,
});

/** Items of another type than a message: tool calls, their outputs, reasoning. */
function isOtherItem(item: unknown): boolean {
  const type = (item as { type?: unknown } | null)?.type;
  return typeof type === "string" && type !== "message";
}

/**
 * An input item. Messages (`{role, content}`, `type: "message"` or none) are
 * read; other items become null and are passed over, as chat's tool messages
 * are: they do not steer the pipeline.
 */
const itemSchema = z.preprocess(
  (item) => (isOtherItem(item) ? null : item),
  messageSchema.nullable(),
);

/**
 * OpenAI's documented Responses parameters that sift accepts and ignores: the
 * pipeline's own prompts decide sampling, and it keeps nothing a later
 * request could name. `text.format` is honoured and tools are refused, so
 * neither is here.
 */
export const IGNORED_RESPONSES_PARAMETERS = [
  "access_programs",
  "background",
  "context_management",
  "image",
  "max_output_tokens",
  "max_tool_calls",
  "metadata",
  "moderation",
  "parallel_tool_calls",
  "prompt_cache_key",
  "prompt_cache_options",
  "prompt_cache_retention",
  "reasoning",
  "safety_identifier",
  "service_tier",
  "store",
  "stream_options",
  "temperature",
  "top_logprobs",
  "top_p",
  "truncation",
  "user",
] as const;

const ignored = Object.fromEntries(
  IGNORED_RESPONSES_PARAMETERS.map((name) => [
    name,
    z.unknown().optional().meta({ description: "Accepted and ignored" }),
  ]),
);

/** A parameter that asks for state sift does not keep: present and not null is a 400. */
const statefulSchema = z.unknown().optional().meta({
  description: "Refused (400): sift keeps no responses or conversations; send the turns in " +
    "`input`",
});

/**
 * `POST /v1/responses`. `model` names a preset as on chat; `input` is a
 * string or a list of messages; `instructions` is accepted and, like chat's
 * system messages, does not steer the pipeline. `namespace` and `filter` are
 * sift's extensions, as on `/v1/query`.
 */
export const responsesRequestSchema = z.strictObject({
  model: z.string({ error: "must be a string" }).min(1, { error: "must not be empty" }),
  input: z.preprocess(
    (input) => (typeof input === "string" ? [{ role: "user", content: input }] : input),
    z.array(itemSchema, { error: "must be a string or an array of input items" })
      .min(1, { error: "must hold at least one item" })
      .max(MAX_ITEMS, { error: `must hold at most ${MAX_ITEMS} items` }),
  ).meta({ description: "A string (one user message), or messages and other input items" }),
  instructions: z.string({ error: "must be a string" }).nullish().meta({
    description: "Accepted; the pipeline's own prompts write the answer",
  }),
  stream: z.boolean({ error: "must be a boolean" }).nullish(),
  previous_response_id: statefulSchema,
  conversation: statefulSchema,
  prompt: statefulSchema,
  namespace: namespaceSchema,
  filter: metadataFilterSchema.optional(),
  text: responsesTextSchema.nullish(),
  include: z.array(z.string({ error: "must be a string" }).max(200), {
    error: "must be an array of strings",
  }).max(20).nullish().meta({
    description: '`"file_search_call.results"` puts the results in the `file_search_call` ' +
      "item; other values name output sift does not produce and are accepted",
  }),
  tools: toolsSchema,
  tool_choice: z.unknown().optional().meta({ description: '`"none"` lets `tools` through' }),
  ...ignored,
});

export type ResponsesRequest = z.infer<typeof responsesRequestSchema>;

/** Refuses what names state kept elsewhere, each naming its field and what to do instead. */
export function refuseStatefulFields(body: ResponsesRequest): void {
  for (const field of ["previous_response_id", "conversation", "prompt"] as const) {
    if (body[field] === undefined || body[field] === null) continue;
    const what = field === "prompt" ? "stored prompts" : "earlier responses or conversations";
    throw new ChatRequestError(
      `${field}: sift keeps no ${what}; send the earlier turns as messages in input ` +
        "(and pass store: false with the AI SDK)",
      { param: field, code: "unsupported_parameter" },
    );
  }
}

/**
 * The last user message is the question, earlier user and assistant messages
 * its history: the same reading as chat's `conversationOf`.
 */
export function conversationOfInput(input: ResponsesRequest["input"]): Conversation {
  const last = input.findLastIndex((item) => item?.role === "user");
  if (last === -1) {
    throw new ChatRequestError("input: must hold a user message", { param: "input" });
  }
  const question = querySchema.safeParse(input[last]!.content);
  if (!question.success) {
    throw new ChatRequestError(
      `input.${last}.content: ${question.error.issues[0]?.message ?? "is not a question"}`,
      { param: `input.${last}.content` },
    );
  }
  const history = input.slice(0, last).flatMap((item): Turn[] =>
    item && (item.role === "user" || item.role === "assistant") && item.content.trim()
      ? [{ role: item.role, text: item.content.trim() }]
      : []
  );
  return { question: question.data, history };
}

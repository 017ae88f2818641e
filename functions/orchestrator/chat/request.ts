import { z } from "zod";
import { metadataFilterSchema, namespaceSchema, querySchema } from "../../../shared/schemas.ts";
import { type Conversation, toolsSchema, type Turn } from "../openai/conversation.ts";
import { ChatRequestError } from "../openai/errors.ts";
import { chatResponseFormatSchema } from "../openai/output-format.ts";

const MAX_MESSAGES = 1000;

const textPartSchema = z.looseObject({
  type: z.literal("text", { error: 'only "text" parts are supported' }),
  text: z.string({ error: "must be a string" }),
});

/**
 * A message's content as one string: a string, an array of text parts, or
 * nothing at all (an assistant turn that only called tools).
 */
const contentSchema = z.preprocess(
  (content) => (typeof content === "string" ? [{ type: "text", text: content }] : content ?? []),
  z.array(textPartSchema, { error: "must be a string or an array of text parts" }),
).transform((parts) => parts.map((part) => part.text).join("\n"));

const messageSchema = z.looseObject({
  role: z.enum(["system", "developer", "user", "assistant", "tool", "function"], {
    error: "must be system, developer, user, assistant, tool or function",
  }),
  content: contentSchema,
});

/**
 * OpenAI's documented chat parameters that sift accepts and ignores: the
 * pipeline's own prompts decide sampling. `response_format` is honoured and
 * tools are refused (`tools.ts`), so neither is here. Anything else at the
 * top level is refused as OpenAI refuses it.
 */
export const IGNORED_CHAT_PARAMETERS = [
  "audio",
  "frequency_penalty",
  "logit_bias",
  "logprobs",
  "max_completion_tokens",
  "max_tokens",
  "metadata",
  "modalities",
  "moderation",
  "parallel_tool_calls",
  "prediction",
  "presence_penalty",
  "prompt_cache_key",
  "prompt_cache_options",
  "prompt_cache_retention",
  "reasoning_effort",
  "safety_identifier",
  "seed",
  "service_tier",
  "stop",
  "store",
  "temperature",
  "top_logprobs",
  "top_p",
  "user",
  "verbosity",
  "web_search_options",
] as const;

const ignored = Object.fromEntries(
  IGNORED_CHAT_PARAMETERS.map((name) => [
    name,
    z.unknown().optional().meta({ description: "Accepted and ignored" }),
  ]),
);

/**
 * `POST /v1/chat/completions`. `model` and `messages` are checked strictly;
 * OpenAI's other parameters (`IGNORED_CHAT_PARAMETERS`) pass through unread,
 * and an unknown one is a 400 in OpenAI's words. Messages keep their extra
 * fields (`name`, `tool_calls`...), as OpenAI's own messages have them.
 * `namespace` and `filter` are sift's extensions, as `/v1/query` takes them.
 */
export const chatRequestSchema = z.strictObject({
  model: z.string({ error: "must be a string" }).min(1, { error: "must not be empty" }),
  messages: z.array(messageSchema, { error: "must be an array of messages" })
    .min(1, { error: "must hold at least one message" })
    .max(MAX_MESSAGES, { error: `must hold at most ${MAX_MESSAGES} messages` }),
  stream: z.boolean({ error: "must be a boolean" }).nullish(),
  stream_options: z.looseObject({
    include_usage: z.boolean({ error: "must be a boolean" }).nullish(),
  }).nullish(),
  n: z.number({ error: "must be a number" }).int({ error: "must be 1" })
    .min(1, { error: "must be 1" })
    .max(1, { error: "must be 1: sift writes one choice" })
    .nullish(),
  namespace: namespaceSchema,
  filter: metadataFilterSchema.optional(),
  response_format: chatResponseFormatSchema.optional(),
  tools: toolsSchema,
  tool_choice: z.unknown().optional().meta({ description: '`"none"` lets `tools` through' }),
  functions: toolsSchema,
  function_call: z.unknown().optional().meta({ description: '`"none"` lets `functions` through' }),
  ...ignored,
});

export type ChatRequest = z.infer<typeof chatRequestSchema>;

/**
 * The last user message is the question; earlier user and assistant messages
 * with text are its history. System and tool messages do not steer the
 * pipeline, whose prompts are its own.
 */
export function conversationOf(messages: ChatRequest["messages"]): Conversation {
  const last = messages.findLastIndex((message) => message.role === "user");
  if (last === -1) {
    throw new ChatRequestError("messages: must hold a user message", { param: "messages" });
  }
  const question = querySchema.safeParse(messages[last]!.content);
  if (!question.success) {
    throw new ChatRequestError(
      `messages.${last}.content: ${question.error.issues[0]?.message ?? "is not a question"}`,
      { param: `messages.${last}.content` },
    );
  }
  const history = messages.slice(0, last).flatMap((message): Turn[] =>
    (message.role === "user" || message.role === "assistant") && message.content.trim()
      ? [{ role: message.role, text: message.content.trim() }]
      : []
  );
  return { question: question.data, history };
}

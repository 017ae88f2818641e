import type { ChatOutcome, ChatUsage } from "../openai/answer.ts";

/** What every object of one completion shares. */
export type CompletionHead = { id: string; created: number; model: string };

export function completionHead(model: string): CompletionHead {
  return {
    id: `chatcmpl-${crypto.randomUUID().replaceAll("-", "")}`,
    created: Math.floor(Date.now() / 1000),
    model,
  };
}

/** The whole answer as one `chat.completion`, with sift's `sources` beside OpenAI's fields. */
export function completionOf(head: CompletionHead, outcome: ChatOutcome) {
  return {
    id: head.id,
    object: "chat.completion" as const,
    created: head.created,
    model: head.model,
    choices: [{
      index: 0,
      message: {
        role: "assistant" as const,
        content: outcome.content,
        refusal: null,
        annotations: outcome.annotations,
      },
      logprobs: null,
      finish_reason: "stop" as const,
    }],
    usage: outcome.usage,
    sources: outcome.sources,
    sift: outcome.sift,
  };
}

/**
 * One `chat.completion.chunk` of the single choice. With
 * `stream_options.include_usage`, OpenAI sends `usage: null` on every chunk
 * but the last, which has no choices; `usageChunk` is that last one.
 */
export function chunkOf(
  head: CompletionHead,
  delta: Record<string, unknown>,
  options: {
    includeUsage: boolean;
    finishReason?: "stop";
    extra?: Record<string, unknown>;
  },
) {
  return {
    id: head.id,
    object: "chat.completion.chunk" as const,
    created: head.created,
    model: head.model,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: options.finishReason ?? null }],
    ...(options.includeUsage ? { usage: null } : {}),
    ...options.extra,
  };
}

export function usageChunk(head: CompletionHead, usage: ChatUsage) {
  return {
    id: head.id,
    object: "chat.completion.chunk" as const,
    created: head.created,
    model: head.model,
    choices: [],
    usage,
  };
}

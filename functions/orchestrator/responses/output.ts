import type { ChatOutcome, ChatUsage } from "../openai/answer.ts";
import type { UrlCitation } from "../openai/citations.ts";
import { type FileCitation, fileCitations } from "./file-search.ts";

/** What every object of one response shares: its id, its message's id, when and which model. */
export type ResponseHead = {
  id: string;
  messageId: string;
  createdAt: number;
  model: string;
  /** With `file_search`: its call's id, its tool as the request gave it, and `include`'s choice. */
  fileSearch?: { callId: string; tool: unknown; include: boolean };
};

const hex = () => crypto.randomUUID().replaceAll("-", "");

export function responseHead(
  model: string,
  fileSearch?: { tool: unknown; include: boolean },
): ResponseHead {
  return {
    id: `resp_${hex()}`,
    messageId: `msg_${hex()}`,
    createdAt: Math.floor(Date.now() / 1000),
    model,
    ...(fileSearch ? { fileSearch: { callId: `fs_${hex()}`, ...fileSearch } } : {}),
  };
}

/** The Responses API's flat `url_citation`: chat's, without the nesting. */
export type ResponsesCitation = {
  type: "url_citation";
  url: string;
  title: string;
  start_index: number;
  end_index: number;
};

export function responsesCitation(annotation: UrlCitation): ResponsesCitation {
  return { type: "url_citation", ...annotation.url_citation };
}

export type Annotation = ResponsesCitation | FileCitation;

/** The answer's annotations: `file_citation`s for an answer from `file_search`, else `url_citation`s. */
export function annotationsOf(head: ResponseHead, outcome: ChatOutcome): Annotation[] {
  return head.fileSearch
    ? fileCitations(outcome.content, outcome.sources)
    : outcome.annotations.map(responsesCitation);
}

/** The answer as the one `output_text` part of the message. */
export function outputText(text: string, annotations: readonly Annotation[]) {
  return { type: "output_text" as const, text, annotations: [...annotations], logprobs: [] };
}

/** The assistant's message item; `in_progress` with no content while it streams. */
export function messageItem(
  head: ResponseHead,
  done?: { text: string; annotations: readonly Annotation[] },
) {
  return {
    type: "message" as const,
    id: head.messageId,
    status: done ? "completed" as const : "in_progress" as const,
    role: "assistant" as const,
    content: done ? [outputText(done.text, done.annotations)] : [],
  };
}

/** OpenAI's usage names over sift's step totals, `cost_usd` kept beside them. */
export function responsesUsage(usage: ChatUsage) {
  return {
    input_tokens: usage.prompt_tokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: usage.completion_tokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: usage.total_tokens,
    cost_usd: usage.cost_usd,
  };
}

/**
 * A `response` object: `in_progress` with no output (what `response.created`
 * carries), or `completed` with the answer's message, `output_text` (the
 * SDKs' convenience, sent too), usage, and sift's `sources` and `sift`.
 */
export function responseOf(
  head: ResponseHead,
  outcome?: ChatOutcome,
  fileSearchItem?: Record<string, unknown>,
) {
  const annotations = outcome ? annotationsOf(head, outcome) : [];
  return {
    id: head.id,
    object: "response" as const,
    created_at: head.createdAt,
    status: outcome ? "completed" as const : "in_progress" as const,
    ...(outcome ? { completed_at: Math.floor(Date.now() / 1000) } : {}),
    error: null,
    incomplete_details: null,
    instructions: null,
    metadata: {},
    model: head.model,
    output: outcome
      ? [
        ...(fileSearchItem ? [fileSearchItem] : []),
        messageItem(head, { text: outcome.content, annotations }),
      ]
      : [],
    ...(outcome ? { output_text: outcome.content } : {}),
    parallel_tool_calls: false,
    previous_response_id: null,
    store: false,
    temperature: null,
    tool_choice: head.fileSearch ? "auto" as const : "none" as const,
    tools: head.fileSearch ? [head.fileSearch.tool] : [],
    top_p: null,
    truncation: "disabled" as const,
    usage: outcome ? responsesUsage(outcome.usage) : null,
    ...(outcome ? { sources: outcome.sources, sift: outcome.sift } : {}),
  };
}

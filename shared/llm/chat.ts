import type OpenAI from "openai";
import { z } from "zod";
import type { LlmContext } from "./client.ts";
import { toLlmError } from "./errors.ts";
import { extractJsonObject } from "./json.ts";
import { promptTag, type PromptTemplate } from "./prompt.ts";
import { answerOf } from "./reasoning.ts";
import { inModelCall, type ModelCall, startModelCall } from "../tracing/gen-ai.ts";

export type TokenUsage = { tokens_in: number; tokens_out: number };

export type ChatRequest = {
  prompt: Pick<PromptTemplate, "id" | "version">;
  system: string;
  user: string;
  signal?: AbortSignal | undefined;
  maxTokens?: number;
  temperature?: number;
  /** Turns after the user's message: a reply and a correction, for one retry of an unreadable reply. */
  followUp?: readonly { role: "assistant" | "user"; content: string }[] | undefined;
};

function body(llm: LlmContext, request: ChatRequest) {
  return {
    model: llm.model,
    temperature: request.temperature ?? 0,
    ...(request.maxTokens ? { max_tokens: request.maxTokens } : {}),
    messages: [
      { role: "system" as const, content: request.system },
      { role: "user" as const, content: request.user },
      ...(request.followUp ?? []),
    ],
  };
}

function requestOptions(llm: LlmContext, request: ChatRequest): OpenAI.RequestOptions {
  return {
    headers: {
      "x-sift-prompt": promptTag(request.prompt),
      // Behind AI Gateway, its logs say which step (by prompt) made each call.
      ...(llm.gateway
        ? {
          "cf-aig-metadata": JSON.stringify({ ...llm.gatewayMetadata, step: request.prompt.id }),
        }
        : {}),
    },
    ...(request.signal ? { signal: request.signal } : {}),
  };
}

/** This client's chat calls as the GenAI span conventions name them. */
function chatCall(llm: LlmContext): ModelCall {
  return { operation: "chat", provider: llm.provider ?? "openai", model: llm.model };
}

/** A completion's tokens (reasoning included) and answering model, for its span. */
function callResult(completion: OpenAI.ChatCompletion) {
  const usage = toUsage(completion.usage);
  return {
    tokensIn: usage.tokens_in,
    tokensOut: usage.tokens_out,
    responseModel: completion.model,
  };
}

/**
 * A completion's tokens, reasoning included: OpenAI counts reasoning tokens
 * in `completion_tokens`, but some OpenAI-compatible providers report them
 * only in `completion_tokens_details.reasoning_tokens` or in `total_tokens`.
 * Whichever says more is what the call cost.
 */
export function toUsage(usage: OpenAI.CompletionUsage | null | undefined): TokenUsage {
  const tokensIn = usage?.prompt_tokens ?? 0;
  const completion = usage?.completion_tokens ?? 0;
  const reasoning = usage?.completion_tokens_details?.reasoning_tokens ?? 0;
  const total = usage?.total_tokens ?? 0;
  return {
    tokens_in: tokensIn,
    tokens_out: Math.max(
      completion,
      total - tokensIn,
      reasoning > completion ? completion + reasoning : completion,
    ),
  };
}

/**
 * One chat completion: the answer's text (thinking set aside: the
 * provider's `reasoning_content` / `reasoning` field and `<think>` blocks,
 * kept in `reasoning`), and the token usage, reasoning tokens included.
 */
export async function completeText(
  llm: LlmContext,
  request: ChatRequest,
): Promise<{ text: string; reasoning?: string; usage: TokenUsage }> {
  try {
    const completion = await inModelCall(
      chatCall(llm),
      () => llm.client.chat.completions.create(body(llm, request), requestOptions(llm, request)),
      callResult,
    );
    const { answer, reasoning } = answerOf(completion.choices[0]?.message);
    return {
      text: answer,
      ...(reasoning ? { reasoning } : {}),
      usage: toUsage(completion.usage),
    };
  } catch (error) {
    throw toLlmError(error);
  }
}

/**
 * The JSON schema sent as `response_format`: zod's draft-7 output without
 * the `$schema` tag, which strict providers reject. Schemas for model output
 * should use plain types (no length or range limits) and no optional fields;
 * ranges are enforced when the reply is parsed.
 */
function jsonSchemaFor(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { target: "draft-7" }) as Record<
    string,
    unknown
  >;
  return rest;
}

/**
 * A structured answer checked against `schema`. With structured outputs on,
 * the provider is asked for json_schema; either way the reply is parsed from
 * text and validated, so a provider that ignores the format still works.
 * `object` is undefined when nothing valid came back: callers degrade.
 */
export async function completeObject<T>(
  llm: LlmContext,
  request: ChatRequest & {
    schema: z.ZodType<T>;
    schemaName: string;
    /** What is sent as json_schema, when it differs from the parsing schema. */
    responseSchema?: z.ZodType;
    /** A caller's own JSON Schema sent as json_schema as it is (no zod schema behind it). */
    responseJsonSchema?: { schema: Record<string, unknown>; strict: boolean };
  },
): Promise<{ object: T | undefined; text: string; reasoning?: string; usage: TokenUsage }> {
  try {
    const completion = await inModelCall(chatCall(llm), () =>
      llm.client.chat.completions.create(
        {
          ...body(llm, request),
          ...(llm.structuredOutputs
            ? {
              response_format: {
                type: "json_schema" as const,
                json_schema: {
                  name: request.schemaName,
                  strict: request.responseJsonSchema?.strict ?? true,
                  schema: request.responseJsonSchema?.schema ??
                    jsonSchemaFor(request.responseSchema ?? request.schema),
                },
              },
            }
            : {}),
        },
        requestOptions(llm, request),
      ), callResult);
    // A draft object in the thinking is no answer: only the text after it is parsed.
    const { answer: text, reasoning } = answerOf(completion.choices[0]?.message);
    const parsed = request.schema.safeParse(extractJsonObject(text));
    return {
      object: parsed.success ? parsed.data : undefined,
      text,
      ...(reasoning ? { reasoning } : {}),
      usage: toUsage(completion.usage),
    };
  } catch (error) {
    throw toLlmError(error);
  }
}

export type StreamPart = { type: "delta"; text: string } | { type: "usage"; usage: TokenUsage };

/** Streams a chat completion as text deltas, then one usage part. */
export async function* streamText(
  llm: LlmContext,
  request: ChatRequest,
): AsyncGenerator<StreamPart> {
  let usage: TokenUsage = { tokens_in: 0, tokens_out: 0 };
  let responseModel: string | undefined;
  const span = startModelCall(chatCall(llm));
  try {
    const stream = await llm.client.chat.completions.create(
      { ...body(llm, request), stream: true, stream_options: { include_usage: true } },
      requestOptions(llm, request),
    );
    for await (const chunk of stream) {
      if (chunk.usage) usage = toUsage(chunk.usage);
      responseModel ??= chunk.model;
      const text = chunk.choices[0]?.delta?.content;
      if (text) yield { type: "delta", text };
    }
  } catch (error) {
    span.fail(error);
    throw toLlmError(error);
  } finally {
    // Ends the span however the stream stops: finished, failed, or its reader left early.
    span.end({ tokensIn: usage.tokens_in, tokensOut: usage.tokens_out, responseModel });
  }
  yield { type: "usage", usage };
}

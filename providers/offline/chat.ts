import { z } from "zod";
import { countTokens, tokenize } from "../../shared/text/tokenize.ts";
import type { FaultKind, Latency } from "../../shared/offline-knobs.ts";
import { streamCompletion } from "./stream.ts";
import { taskFor } from "./tasks/index.ts";
import type { OfflineTask, TaskInput } from "./tasks/types.ts";
import { sleep, tokenDelay } from "./timing.ts";
import { errorResponse, jsonResponse, truncatedJsonResponse } from "./wire.ts";

const contentPart = z.object({ type: z.string(), text: z.string().optional() });
const chatRequest = z.object({
  model: z.string(),
  messages: z.array(z.object({
    role: z.string(),
    content: z.union([z.string(), z.array(contentPart), z.null()]).optional(),
  })).min(1),
  stream: z.boolean().nullish(),
  stream_options: z.object({ include_usage: z.boolean().nullish() }).nullish(),
  response_format: z.object({ type: z.string() }).nullish(),
  max_tokens: z.number().int().positive().nullish(),
  max_completion_tokens: z.number().int().positive().nullish(),
});

export type ChatContext = {
  fault: FaultKind | undefined;
  latency: Latency;
  signal: AbortSignal;
  /** The `x-sift-prompt` header, naming the task. */
  prompt: string | null;
  id: string;
};

/** What a broken model writes: JSON cut in half, or prose with no usable structure. */
function malformed(task: OfflineTask, input: TaskInput, reply: string): string {
  if (task.malformed) return task.malformed(input, reply);
  if (reply.trimStart().startsWith("{")) return reply.slice(0, Math.floor(reply.length / 2));
  return "(offline model) Malformed output injected by OFFLINE_MODEL_FAULTS; nothing usable here.";
}

/** Cuts content at `limit` tokens, as a provider does when `max_tokens` runs out. */
function limitTokens(content: string, limit: number | undefined) {
  const tokens = limit === undefined ? [] : tokenize(content);
  const last = limit === undefined ? undefined : tokens[limit - 1];
  if (limit === undefined || !last || tokens.length <= limit) {
    return { content, finishReason: "stop" as const };
  }
  return { content: content.slice(0, last.end), finishReason: "length" as const };
}

/** `POST /chat/completions`, non-streaming or SSE, for the task the prompt header names. */
export async function handleChat(body: unknown, context: ChatContext): Promise<Response> {
  const parsed = chatRequest.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return errorResponse(400, `${issue?.path.join(".") || "body"}: ${issue?.message}`, {
      param: String(issue?.path[0] ?? ""),
    });
  }
  const request = parsed.data;
  const messages = request.messages.map((message) => ({
    role: message.role,
    content: typeof message.content === "string"
      ? message.content
      : (message.content ?? []).map((part) => part.text ?? "").join("\n"),
  }));
  const { task, version } = taskFor(context.prompt);
  const input: TaskInput = {
    system: messages.filter((m) => m.role === "system" || m.role === "developer")
      .map((m) => m.content).join("\n\n"),
    user: messages.findLast((m) => m.role === "user")?.content ?? "",
    messages,
    json: ["json_schema", "json_object"].includes(request.response_format?.type ?? ""),
    promptVersion: version,
  };
  const reply = context.fault === "empty" ? "" : task.reply(input);
  const { content, finishReason } = limitTokens(
    context.fault === "malformed" ? malformed(task, input, reply) : reply,
    request.max_completion_tokens ?? request.max_tokens ?? undefined,
  );
  const promptTokens = messages.reduce((sum, m) => sum + countTokens(m.content), 0);
  const completionTokens = countTokens(content);
  const usage = {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
  };
  const base = {
    id: context.id,
    created: Math.floor(Date.now() / 1000),
    model: request.model,
    system_fingerprint: "sift-offline",
  };

  if (request.stream) {
    return streamCompletion({
      base,
      content,
      finishReason,
      usage,
      includeUsage: request.stream_options?.include_usage === true,
      cut: context.fault === "cut",
      latency: context.latency,
    }, context.signal);
  }
  // Non-streaming replies arrive when the last token would have.
  const { ttftMs, tokensPerSecond } = context.latency;
  await sleep(ttftMs + tokenDelay(completionTokens, tokensPerSecond), context.signal);
  const completion = {
    ...base,
    object: "chat.completion",
    choices: [{
      index: 0,
      message: { role: "assistant", content, refusal: null },
      logprobs: null,
      finish_reason: finishReason,
    }],
    usage,
  };
  return context.fault === "cut" ? truncatedJsonResponse(completion) : jsonResponse(completion);
}

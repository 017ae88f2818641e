import { z } from "zod";
import type { SiftError } from "../../shared/errors.ts";
import { isAiBinding, type WorkersAiRunner } from "./runner.ts";
import { bindingRunner } from "./binding.ts";
import type { Config } from "../../shared/config.ts";
import { gatewayBindingOptions } from "../../shared/llm/gateway.ts";

/**
 * The OpenAI protocol over a Workers AI runner, as the `openai` SDK's
 * `fetch`: `POST /v1/chat/completions` (streamed or not) and
 * `POST /v1/embeddings` become `run(model, inputs)` with the models'
 * documented inputs, and their outputs come back as OpenAI's replies. sift's
 * LLM code then runs unchanged on the `AI` binding, where no HTTP endpoint
 * and no key exist. A failure is an OpenAI-shaped error with a status, which
 * the SDK turns into its own error like any provider's.
 */
export function openAiFetchOver(runner: WorkersAiRunner) {
  return async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const path = new URL(request.url).pathname;
    let body: Record<string, unknown>;
    try {
      body = z.record(z.string(), z.unknown()).parse(await request.json());
    } catch {
      return errorReply(400, "the request body is not a JSON object");
    }
    try {
      if (path.endsWith("/chat/completions")) return await chat(runner, body, request.signal);
      if (path.endsWith("/embeddings")) return await embeddings(runner, body, request.signal);
    } catch (error) {
      const status = (error as Partial<SiftError>).status ?? 502;
      return errorReply(status, "Workers AI failed");
    }
    return errorReply(404, `no route ${path}`);
  };
}

/**
 * The `openai` SDK's `fetch` for this env's `AI` binding; undefined without
 * one. With `AI_GATEWAY_ID`, calls go through that gateway, each with the
 * step the request's `cf-aig-metadata` names.
 */
export function workersAiBindingFetch(env: Record<string, unknown>, config: Config) {
  if (!isAiBinding(env.AI)) return undefined;
  const ai = env.AI;
  return (input: string | URL | Request, init?: RequestInit) => {
    const metadata = metadataOf(new Headers(init?.headers ?? (input as Request).headers));
    const options = config.aiGateway
      ? gatewayBindingOptions(config.aiGateway, metadata)
      : undefined;
    return openAiFetchOver(bindingRunner(ai, () => options))(input, init);
  };
}

/** The step a call names in `cf-aig-metadata` (chat.ts sets it), as the binding takes it. */
function metadataOf(headers: Headers): Record<string, string> {
  try {
    const parsed = z.record(z.string(), z.string()).safeParse(
      JSON.parse(headers.get("cf-aig-metadata") ?? "{}"),
    );
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

function errorReply(status: number, message: string): Response {
  return Response.json({ error: { message, type: "workers_ai_error" } }, { status });
}

const usageSchema = z.object({
  prompt_tokens: z.number().int().default(0),
  completion_tokens: z.number().int().default(0),
  total_tokens: z.number().int().optional(),
}).optional();

/** A text generation model's documented output. `response` is an object under JSON mode. */
const chatResultSchema = z.object({
  response: z.union([z.string(), z.record(z.string(), z.unknown()), z.null()]).optional(),
  usage: usageSchema,
});

function chatInputs(body: Record<string, unknown>): Record<string, unknown> {
  const inputs: Record<string, unknown> = { messages: body.messages };
  for (const key of ["max_tokens", "temperature", "top_p", "seed", "response_format"]) {
    if (body[key] !== undefined && body[key] !== null) inputs[key] = body[key];
  }
  return inputs;
}

function usageOf(usage: z.output<typeof usageSchema>) {
  const prompt = usage?.prompt_tokens ?? 0;
  const completion = usage?.completion_tokens ?? 0;
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
  };
}

async function chat(runner: WorkersAiRunner, body: Record<string, unknown>, signal: AbortSignal) {
  const model = String(body.model);
  const head = {
    id: `chatcmpl-${crypto.randomUUID()}`,
    created: Math.floor(Date.now() / 1000),
    model,
  };
  if (body.stream === true) {
    const output = await runner.run(model, { ...chatInputs(body), stream: true }, signal);
    if (!(output instanceof ReadableStream)) return errorReply(502, "Workers AI did not stream");
    return new Response(output.pipeThrough(toOpenAiChunks(head)), {
      headers: { "content-type": "text/event-stream" },
    });
  }
  const result = chatResultSchema.safeParse(await runner.run(model, chatInputs(body), signal));
  if (!result.success) return errorReply(502, "Workers AI sent a reply sift cannot read");
  const response = result.data.response;
  return Response.json({
    ...head,
    object: "chat.completion",
    choices: [{
      index: 0,
      message: {
        role: "assistant",
        content: typeof response === "string" ? response : response ? JSON.stringify(response) : "",
      },
      finish_reason: "stop",
    }],
    usage: usageOf(result.data.usage),
  });
}

const streamPartSchema = z.object({ response: z.string().optional(), usage: usageSchema });

/**
 * Workers AI's stream (`data: {"response": "..."}` events, usage on a late
 * one, then `data: [DONE]`) as OpenAI's `chat.completion.chunk` events, the
 * usage on a last chunk with no choices (`stream_options.include_usage`).
 */
function toOpenAiChunks(head: { id: string; created: number; model: string }) {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let buffer = "";
  let usage: ReturnType<typeof usageOf> | undefined;
  const chunk = (fields: Record<string, unknown>) =>
    encoder.encode(
      `data: ${JSON.stringify({ ...head, object: "chat.completion.chunk", ...fields })}\n\n`,
    );
  const handle = (line: string, controller: TransformStreamDefaultController<Uint8Array>) => {
    if (!line.startsWith("data:")) return;
    const data = line.slice(5).trim();
    if (!data || data === "[DONE]") return;
    let parsed: z.output<typeof streamPartSchema>;
    try {
      parsed = streamPartSchema.parse(JSON.parse(data));
    } catch {
      return; // an event sift cannot read is skipped, as a provider's comment would be
    }
    if (parsed.usage) usage = usageOf(parsed.usage);
    if (parsed.response) {
      controller.enqueue(chunk({
        choices: [{ index: 0, delta: { content: parsed.response }, finish_reason: null }],
      }));
    }
  };
  return new TransformStream<Uint8Array, Uint8Array>({
    transform(bytes, controller) {
      buffer += decoder.decode(bytes, { stream: true });
      const lines = buffer.split(/\r?\n/);
      buffer = lines.pop() ?? "";
      for (const line of lines) handle(line, controller);
    },
    flush(controller) {
      handle(buffer, controller);
      controller.enqueue(chunk({ choices: [{ index: 0, delta: {}, finish_reason: "stop" }] }));
      if (usage) controller.enqueue(chunk({ choices: [], usage }));
      controller.enqueue(encoder.encode("data: [DONE]\n\n"));
    },
  });
}

/** An embedding model's documented output: `{shape: [n, dims], data: number[][]}`. */
const embeddingResultSchema = z.object({
  shape: z.array(z.number().int()).optional(),
  data: z.array(z.array(z.number())),
});

async function embeddings(
  runner: WorkersAiRunner,
  body: Record<string, unknown>,
  signal: AbortSignal,
) {
  const model = String(body.model);
  const texts = Array.isArray(body.input) ? body.input.map(String) : [String(body.input)];
  const result = embeddingResultSchema.safeParse(await runner.run(model, { text: texts }, signal));
  if (!result.success || result.data.data.length !== texts.length) {
    return errorReply(502, "Workers AI sent embeddings sift cannot read");
  }
  return Response.json({
    object: "list",
    model,
    data: result.data.data.map((embedding, index) => ({ object: "embedding", index, embedding })),
    // The models report no usage; sift does not guess one here.
    usage: { prompt_tokens: 0, total_tokens: 0 },
  });
}

import { createOfflineModel } from "../../providers/offline/model.ts";

/** One chat call as the server saw it. */
export type TextModelCall = {
  prompt: string;
  system: string;
  user: string;
  body: Record<string, unknown>;
};

/** A reply's text, or an HTTP status for a failed call. */
export type TextModelReply = (call: TextModelCall) => string | number;

function completion(model: string, content: string, promptTokens: number) {
  const completionTokens = content.split(/\s+/).filter(Boolean).length;
  return {
    id: `chatcmpl-text-${crypto.randomUUID()}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{
      index: 0,
      message: { role: "assistant", content, refusal: null },
      logprobs: null,
      finish_reason: "stop",
    }],
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
    },
  };
}

/**
 * The content as `chat.completion.chunk` events, a word per chunk, the usage
 * chunk when the request asked for it (`stream_options.include_usage`), then `[DONE]`.
 */
function streamed(model: string, content: string, includeUsage: boolean): Response {
  const base = { id: `chatcmpl-text-${crypto.randomUUID()}`, created: 0, model };
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
    `data: ${JSON.stringify({ ...base, object: "chat.completion.chunk", choices, ...extra })}\n\n`;
  const pieces = content.match(/\S+\s*/g) ?? [];
  const text = [
    chunk([{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }]),
    ...pieces.map((piece) => chunk([{ index: 0, delta: { content: piece }, finish_reason: null }])),
    chunk([{ index: 0, delta: {}, finish_reason: "stop" }]),
    ...(includeUsage
      ? [chunk([], {
        usage: {
          prompt_tokens: 10,
          completion_tokens: pieces.length,
          total_tokens: 10 + pieces.length,
        },
      })]
      : []),
    "data: [DONE]\n\n",
  ].join("");
  return new Response(text, { headers: { "content-type": "text/event-stream" } });
}

/**
 * A real OpenAI-compatible HTTP server on a free loopback port whose model
 * is `reply` (a status code answers as a failed call), with the offline
 * model's embeddings, and a `/v1/models` that always answers. It records
 * every chat call; point `LLM_BASE_URL` at `baseURL`.
 *
 * @example
 * await using model = serveTextModel(() => "0.5");
 */
export function serveTextModel(reply: TextModelReply) {
  const embeddings = createOfflineModel();
  const calls: TextModelCall[] = [];
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (request) => {
      const path = new URL(request.url).pathname;
      if (request.method === "POST" && path === "/v1/embeddings") {
        return await embeddings.handle(request);
      }
      if (request.method === "GET" && path === "/v1/models") {
        return Response.json({ object: "list", data: [{ id: "text-model", object: "model" }] });
      }
      if (request.method !== "POST" || path !== "/v1/chat/completions") {
        return Response.json({ error: { message: "Not found" } }, { status: 404 });
      }
      const body = await request.json() as {
        model: string;
        stream?: boolean;
        stream_options?: { include_usage?: boolean };
        messages: { role: string; content: string }[];
      };
      const call = {
        prompt: request.headers.get("x-sift-prompt") ?? "",
        system: body.messages.find((m) => m.role === "system")?.content ?? "",
        user: body.messages.findLast((m) => m.role === "user")?.content ?? "",
        body,
      };
      calls.push(call);
      const content = reply(call);
      if (typeof content === "number") {
        return Response.json({
          error: { message: "scripted failure", type: "invalid_request_error" },
        }, {
          status: content,
        });
      }
      if (body.stream) {
        return streamed(body.model, content, body.stream_options?.include_usage === true);
      }
      return Response.json(completion(body.model, content, (call.system + call.user).length >> 2));
    },
  );
  return {
    baseURL: `http://127.0.0.1:${server.addr.port}/v1`,
    calls,
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

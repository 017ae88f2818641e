/**
 * FAKES of Workers AI, for contract tests. Workers AI has no local simulation
 * (Cloudflare's docs say so: `wrangler dev` proxies the binding to a real
 * account), so these follow the documented request and response shapes and
 * nothing more: they are not Workers AI and score nothing meaningfully.
 *
 * - `startWorkersAiRestFake()`: a loopback server for Cloudflare's REST API
 *   (`POST /client/v4/accounts/{account}/ai/run/{model}` in the `{success,
 *   result, errors, messages}` envelope, and the OpenAI-compatible
 *   `/ai/v1/chat/completions` and `/ai/v1/embeddings`), recording every
 *   request it gets.
 * - `fakeAiBinding()`: an object with the `AI` binding's `run(model, inputs,
 *   options)`, recording its calls.
 */

export const FAKE_ACCOUNT_ID = "0123456789abcdef0123456789abcdef";
export const FAKE_API_TOKEN = "fake-cloudflare-token";

export type RecordedRequest = {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
};

/** The reranker's documented output for a query and contexts: a score per context id. */
export type RerankScorer = (query: string, texts: string[]) => number[];

/** Scores by how many query words a context holds: deterministic, and not a model. */
export const overlapScorer: RerankScorer = (query, texts) => {
  const words = new Set(query.toLowerCase().match(/\w+/g) ?? []);
  return texts.map((text) =>
    (text.toLowerCase().match(/\w+/g) ?? []).filter((word) => words.has(word)).length
  );
};

export const EMBEDDING_DIMENSIONS: Record<string, number> = {
  "@cf/baai/bge-small-en-v1.5": 384,
  "@cf/baai/bge-base-en-v1.5": 768,
  "@cf/baai/bge-large-en-v1.5": 1024,
};

/** The documented output of `model` for `inputs`, as the binding returns it (no envelope). */
export function fakeResult(
  model: string,
  inputs: Record<string, unknown>,
  scorer: RerankScorer,
): unknown {
  if (model === "@cf/baai/bge-reranker-base") {
    const contexts = inputs.contexts as { text: string }[];
    const scores = scorer(String(inputs.query), contexts.map((context) => context.text));
    const response = scores.map((score, id) => ({ id, score }))
      .sort((a, b) => b.score - a.score);
    const topK = typeof inputs.top_k === "number" ? inputs.top_k : response.length;
    return { response: response.slice(0, topK) };
  }
  if (model in EMBEDDING_DIMENSIONS) {
    const texts = Array.isArray(inputs.text) ? inputs.text as string[] : [String(inputs.text)];
    const size = EMBEDDING_DIMENSIONS[model]!;
    return {
      shape: [texts.length, size],
      data: texts.map((text) =>
        Array.from({ length: size }, (_, i) => Math.sin(text.length + i) / Math.sqrt(size))
      ),
      pooling: "mean",
    };
  }
  const messages = (inputs.messages ?? []) as { content: string }[];
  const prompt = messages.map((message) => message.content).join(" ");
  const response = "A fake reply.";
  const usage = {
    prompt_tokens: prompt.split(/\s+/).length,
    completion_tokens: 3,
    total_tokens: prompt.split(/\s+/).length + 3,
  };
  if (inputs.stream === true) {
    // Text generation's documented stream: `data: {"response": ...}` events, usage late, [DONE].
    const events = [
      ...response.split(" ").map((word, i) => ({ response: i ? ` ${word}` : word, p: "abc" })),
      { response: "", usage },
    ];
    return new Response(
      events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join("") + "data: [DONE]\n\n",
    ).body!;
  }
  return { response, usage };
}

function sse(parts: unknown[]): string {
  return parts.map((part) => `data: ${JSON.stringify(part)}\n\n`).join("") + "data: [DONE]\n\n";
}

function openAiChat(body: Record<string, unknown>) {
  const result = fakeResult(String(body.model), { ...body, stream: false }, overlapScorer) as {
    response: string;
    usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
  };
  const head = { id: "chatcmpl-fake", created: 0, model: String(body.model) };
  if (body.stream) {
    const words = result.response.split(" ");
    return new Response(
      sse([
        ...words.map((word, i) => ({
          ...head,
          object: "chat.completion.chunk",
          choices: [{
            index: 0,
            delta: { content: i ? ` ${word}` : word },
            finish_reason: null,
          }],
        })),
        {
          ...head,
          object: "chat.completion.chunk",
          choices: [{ index: 0, delta: {}, finish_reason: "stop" }],
        },
        { ...head, object: "chat.completion.chunk", choices: [], usage: result.usage },
      ]),
      { headers: { "content-type": "text/event-stream" } },
    );
  }
  return Response.json({
    ...head,
    object: "chat.completion",
    choices: [{
      index: 0,
      message: { role: "assistant", content: result.response },
      finish_reason: "stop",
    }],
    usage: result.usage,
  });
}

function openAiEmbeddings(body: Record<string, unknown>) {
  const input = Array.isArray(body.input) ? body.input as string[] : [String(body.input)];
  const result = fakeResult(String(body.model), { text: input }, overlapScorer) as {
    data: number[][];
  };
  return Response.json({
    object: "list",
    model: body.model,
    data: result.data.map((embedding, index) => ({ object: "embedding", index, embedding })),
    usage: { prompt_tokens: input.length * 4, total_tokens: input.length * 4 },
  });
}

const failure = (status: number, code: number, message: string) =>
  Response.json({ success: false, errors: [{ code, message }], messages: [], result: null }, {
    status,
  });

/**
 * Starts the REST fake on 127.0.0.1. `fail` makes every call answer with
 * Cloudflare's error envelope and that status.
 */
export function startWorkersAiRestFake(
  options: { scorer?: RerankScorer; fail?: { status: number; code: number } } = {},
) {
  const requests: RecordedRequest[] = [];
  const scorer = options.scorer ?? overlapScorer;
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (request) => {
      const path = decodeURIComponent(new URL(request.url).pathname);
      const text = await request.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch { /* recorded as text */ }
      requests.push({
        method: request.method,
        path,
        headers: Object.fromEntries(request.headers),
        body,
      });
      if (request.headers.get("authorization") !== `Bearer ${FAKE_API_TOKEN}`) {
        return failure(401, 10000, "Authentication error");
      }
      if (options.fail) return failure(options.fail.status, options.fail.code, "fake failure");
      const prefix = `/client/v4/accounts/${FAKE_ACCOUNT_ID}/ai`;
      if (request.method !== "POST" || !path.startsWith(prefix)) {
        return failure(404, 7003, "No route for that URI");
      }
      const rest = path.slice(prefix.length);
      const inputs = body as Record<string, unknown>;
      if (rest === "/v1/chat/completions") return openAiChat(inputs);
      if (rest === "/v1/embeddings") return openAiEmbeddings(inputs);
      if (rest.startsWith("/run/")) {
        const model = rest.slice("/run/".length);
        return Response.json({
          result: fakeResult(model, inputs, scorer),
          success: true,
          errors: [],
          messages: [],
        });
      }
      return failure(404, 7003, "No route for that URI");
    },
  );
  return {
    /** What `CLOUDFLARE_API_BASE_URL` is set to. */
    apiBaseUrl: `http://127.0.0.1:${server.addr.port}/client/v4`,
    requests,
    close: () => server.shutdown(),
  };
}

/** An `AI` binding's shape, answering with the documented outputs and recording each call. */
export function fakeAiBinding(options: { scorer?: RerankScorer; throws?: Error } = {}) {
  const calls: { model: string; inputs: Record<string, unknown>; options?: unknown }[] = [];
  return {
    calls,
    run(model: string, inputs: Record<string, unknown>, runOptions?: Record<string, unknown>) {
      calls.push({ model, inputs, ...(runOptions ? { options: runOptions } : {}) });
      if (options.throws) return Promise.reject(options.throws);
      return Promise.resolve(fakeResult(model, inputs, options.scorer ?? overlapScorer));
    },
  };
}

/**
 * The offline model: a deterministic heuristic "model" behind OpenAI's HTTP
 * protocol, so the real `openai` SDK talks to it in-process (its `fetch`
 * option) or over HTTP (`scripts/offline-model.ts`). It answers extractively
 * and says so; it never pretends to be an LLM. Web-standard APIs only, so it
 * runs the same on Deno and workerd, and it never touches the network.
 */
import { HASHED_EMBEDDING_MODEL } from "../../shared/embeddings/hashed.ts";
import { handleChat } from "./chat.ts";
import { handleEmbeddings } from "./embeddings.ts";
import { drawFault, parseFaults, parseLatency, seededRandom } from "../../shared/offline-knobs.ts";
import { untilAborted } from "./timing.ts";
import { errorResponse, jsonResponse, rateLimitResponse, serverErrorResponse } from "./wire.ts";

/** The model ids `GET /models` lists. Any model name is accepted on requests and echoed back. */
export const OFFLINE_MODEL_IDS = ["sift-offline", "sift-offline-judge", HASHED_EMBEDDING_MODEL];

export type OfflineModelOptions = {
  /** `OFFLINE_MODEL_LATENCY`, e.g. `"ttft=300ms,tps=80"`. */
  latency?: string | undefined;
  /** `OFFLINE_MODEL_FAULTS`, e.g. `"http429=0.2,cut=0.1"`. */
  faults?: string | undefined;
  /** Seeds the fault draws: the same seed gives the same fault sequence. Default 1. */
  seed?: number | undefined;
};

export type OfflineModel = {
  /** Serves one OpenAI API request; paths may carry any prefix (`/v1/chat/completions`). */
  handle(request: Request): Promise<Response>;
  /** `handle` as a `fetch`, for `new OpenAI({ fetch })`; honours `init.signal`. */
  fetch: typeof fetch;
};

type Route = "chat" | "embeddings" | "models";

function routeOf(method: string, path: string): Route | undefined {
  if (method === "POST" && path.endsWith("/chat/completions")) return "chat";
  if (method === "POST" && path.endsWith("/embeddings")) return "embeddings";
  if (method === "GET" && path.endsWith("/models")) return "models";
  return undefined;
}

/**
 * Builds an offline model. Bad knob strings throw an `Error` saying what is
 * wrong. The fault draws are a sequence per instance, so keep one instance
 * for as long as the sequence should run.
 *
 * @example
 * const model = createOfflineModel({ faults: "http429=0.1", seed: 7 });
 * const client = new OpenAI({ apiKey: "offline", baseURL: "http://offline.invalid/v1", fetch: model.fetch });
 */
export function createOfflineModel(options: OfflineModelOptions = {}): OfflineModel {
  const latency = parseLatency(options.latency);
  const faults = parseFaults(options.faults);
  const random = seededRandom(options.seed ?? 1);
  let sequence = 0;

  async function handle(request: Request): Promise<Response> {
    const path = new URL(request.url).pathname.replace(/\/+$/, "");
    const route = routeOf(request.method, path);
    if (!route) {
      await request.body?.cancel();
      return errorResponse(404, `Invalid URL (${request.method} ${path})`);
    }
    if (route === "models") {
      return jsonResponse({
        object: "list",
        data: OFFLINE_MODEL_IDS.map((id) => ({
          id,
          object: "model",
          created: 0,
          owned_by: "sift",
        })),
      });
    }
    // One draw per model call, before anything else, so a seed fixes which calls fail.
    const fault = drawFault(faults, random);
    sequence++;
    if (fault === "http429" || fault === "http500" || fault === "timeout") {
      await request.body?.cancel();
      if (fault === "timeout") return await untilAborted(request.signal);
      return fault === "http429" ? rateLimitResponse() : serverErrorResponse();
    }
    let body: unknown;
    try {
      body = await request.json();
    } catch {
      return errorResponse(400, "We could not parse the JSON body of your request.");
    }
    const signal = request.signal;
    if (route === "embeddings") return await handleEmbeddings(body, { fault, latency, signal });
    const id = `chatcmpl-offline-${sequence.toString(16).padStart(8, "0")}`;
    const prompt = request.headers.get("x-sift-prompt");
    return await handleChat(body, { fault, latency, signal, prompt, id });
  }

  /** A task that throws is a bug here, but the client should see a 500 like any provider's. */
  async function handleSafely(request: Request): Promise<Response> {
    try {
      return await handle(request);
    } catch (error) {
      if (request.signal.aborted) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      return errorResponse(500, `The offline model failed: ${reason}`);
    }
  }

  return {
    handle: handleSafely,
    fetch: (input, init) => {
      const request = new Request(input, init);
      // Like fetch: an already-aborted signal rejects before any work.
      if (request.signal.aborted) return Promise.reject(request.signal.reason);
      return handleSafely(request);
    },
  };
}

import OpenAI from "openai";
import type { Config } from "../config.ts";

/** What an LLM-calling function needs: a client, the model, and the output mode. */
export type LlmContext = {
  client: OpenAI;
  model: string;
  /** false: ask for the papers' plain-text formats instead of json_schema. */
  structuredOutputs: boolean;
  /** `gen_ai.provider.name` on this client's spans; `openai` when unset. */
  provider?: string;
};

/** The in-process offline model, as the `openai` SDK's `fetch`. */
export type OfflineFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/**
 * Builds the `openai` client for this request's config: the real provider at
 * `LLM_BASE_URL` (OpenAI when unset), or the offline model in-process through
 * the SDK's `fetch` option, so both paths run the same SDK code. The SDK owns
 * retries (429/5xx with backoff); the timeout is explicit.
 */
export function createLlmClient(
  config: Config,
  offlineFetch: () => OfflineFetch,
  options: { model?: string } = {},
): LlmContext {
  const llm = config.llm;
  const client = llm.provider === "offline"
    ? new OpenAI({
      apiKey: "offline",
      baseURL: "http://offline-model.invalid/v1",
      fetch: offlineFetch(),
      maxRetries: 2,
      timeout: llm.timeoutMs,
    })
    : new OpenAI({
      // Local OpenAI-compatible servers (vLLM, Ollama, the offline model) need no key.
      apiKey: llm.apiKey ?? "unused",
      ...(llm.baseURL ? { baseURL: llm.baseURL } : {}),
      maxRetries: 2,
      timeout: llm.timeoutMs,
    });
  return {
    client,
    model: options.model ?? llm.model,
    structuredOutputs: llm.structuredOutputs,
    provider: llm.provider === "offline"
      ? "sift.offline"
      : llm.baseURL
      ? "openai_compatible"
      : "openai",
  };
}

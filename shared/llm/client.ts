import OpenAI from "openai";
import type { Config } from "../config.ts";
import { ConfigError } from "../errors.ts";
import { type AiGatewayConfig, gatewayHeaders } from "./gateway.ts";
import { workersAiUrls } from "./cloudflare-urls.ts";

/** What an LLM-calling function needs: a client, the model, and the output mode. */
export type LlmContext = {
  client: OpenAI;
  model: string;
  /** false: ask for the papers' plain-text formats instead of json_schema. */
  structuredOutputs: boolean;
  /** `gen_ai.provider.name` on this client's spans; `openai` when unset. */
  provider?: string;
  /** Set when AI Gateway's knobs are: each call then names its step in `cf-aig-metadata`. */
  gateway?: AiGatewayConfig;
  /** Added to each call's `cf-aig-metadata` beside its step: the tenant, when the key names one. */
  gatewayMetadata?: Record<string, string>;
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
  options: { model?: string; fetch?: OfflineFetch; workersAiFetch?: OfflineFetch | undefined } = {},
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
    : llm.provider === "workers-ai"
    ? workersAiClient(config, options.workersAiFetch)
    : new OpenAI({
      // Local OpenAI-compatible servers (vLLM, Ollama, the offline model) need no key.
      apiKey: llm.apiKey ?? "unused",
      ...(config.aiGateway ? { defaultHeaders: gatewayHeaders(config.aiGateway) } : {}),
      ...(llm.baseURL ? { baseURL: llm.baseURL } : {}),
      ...(options.fetch ? { fetch: options.fetch } : {}),
      maxRetries: 2,
      timeout: llm.timeoutMs,
    });
  return {
    client,
    model: options.model ?? llm.model,
    structuredOutputs: llm.structuredOutputs,
    ...(config.aiGateway && llm.provider !== "offline" ? { gateway: config.aiGateway } : {}),
    provider: llm.provider === "offline"
      ? "sift.offline"
      : llm.baseURL
      ? "openai_compatible"
      : "openai",
  };
}

/**
 * Workers AI through the same SDK: on Workers the `AI` binding behind a
 * `fetch` that speaks the OpenAI protocol (no key); elsewhere Cloudflare's
 * OpenAI-compatible REST endpoint, `{CLOUDFLARE_API_BASE_URL}/accounts/{id}/ai/v1`,
 * with the API token.
 */
function workersAiClient(config: Config, bindingFetch: OfflineFetch | undefined): OpenAI {
  const common = {
    maxRetries: 2,
    timeout: config.llm.timeoutMs,
    ...(config.aiGateway ? { defaultHeaders: gatewayHeaders(config.aiGateway) } : {}),
  };
  if (bindingFetch) {
    return new OpenAI({
      ...common,
      apiKey: "binding",
      baseURL: "http://workers-ai.binding/v1",
      fetch: bindingFetch,
    });
  }
  const cloudflare = config.cloudflare;
  if (!cloudflare) {
    throw new ConfigError(
      "LLM_PROVIDER=workers-ai needs the AI binding (Workers) or CLOUDFLARE_ACCOUNT_ID and " +
        "CLOUDFLARE_API_TOKEN",
    );
  }
  return new OpenAI({
    ...common,
    apiKey: cloudflare.apiToken,
    baseURL: workersAiUrls(cloudflare).openAiBase,
  });
}

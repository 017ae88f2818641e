import { envelopeSchema, toWorkersAiError, unreadableReply, workersAiError } from "./errors.ts";
import type { WorkersAiRunner } from "./runner.ts";
import { workersAiUrls } from "../../shared/llm/cloudflare-urls.ts";

export type RestOptions = {
  /** `CLOUDFLARE_API_BASE_URL`: `https://api.cloudflare.com/client/v4` unless a gateway or test says otherwise. */
  apiBaseUrl: string;
  accountId: string;
  apiToken: string;
  timeoutMs: number;
  /** Extra headers on every call (AI Gateway's `cf-aig-*`). */
  headers?: () => Record<string, string>;
  fetch?: typeof fetch;
};

/** Replies are JSON of a few hundred KB at most (embeddings of a batch): a bound on reading. */
const MAX_REPLY_BYTES = 16 * 1024 * 1024;

/**
 * Workers AI over Cloudflare's REST API:
 * `POST {base}/accounts/{account_id}/ai/run/{model}` (or an AI Gateway's
 * `{gateway}/workers-ai/{model}`) with the API token as a
 * bearer, the model's inputs as the body, and `{success, result, errors}`
 * back. A failure (`success: false` or a non-2xx status) is sift's
 * `UpstreamError`, retryable when the status says so.
 */
export function restRunner(options: RestOptions): WorkersAiRunner {
  const send = options.fetch ?? fetch;
  return {
    via: "rest",
    async run(model, inputs, signal) {
      const url = workersAiUrls(options).run(model);
      const timeout = AbortSignal.timeout(options.timeoutMs);
      const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
      let response: Response;
      let text: string;
      try {
        response = await send(url, {
          method: "POST",
          headers: {
            authorization: `Bearer ${options.apiToken}`,
            "content-type": "application/json",
            ...options.headers?.(),
          },
          body: JSON.stringify(inputs),
          signal: combined,
        });
        const declared = Number(response.headers.get("content-length") ?? 0);
        if (declared > MAX_REPLY_BYTES) {
          await response.body?.cancel();
          throw unreadableReply(new Error(`a reply of ${declared} bytes`));
        }
        text = await response.text();
      } catch (error) {
        throw toWorkersAiError(error, signal);
      }
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch (error) {
        if (!response.ok) throw workersAiError(response.status);
        throw unreadableReply(error);
      }
      const envelope = envelopeSchema.safeParse(json);
      if (!envelope.success) {
        if (!response.ok) throw workersAiError(response.status);
        throw unreadableReply(envelope.error);
      }
      if (!response.ok || !envelope.data.success) {
        throw workersAiError(response.ok ? 502 : response.status, envelope.data.errors);
      }
      return envelope.data.result;
    },
  };
}

import { APIConnectionTimeoutError, APIError, APIUserAbortError } from "openai";
import { SiftError, UpstreamError } from "../errors.ts";

/**
 * Maps what the `openai` SDK throws (after its own retries) into the error
 * family. The provider's message and body stay in `cause`, never in the
 * response.
 */
export function toLlmError(error: unknown, provider = "LLM"): SiftError {
  if (error instanceof SiftError) return error;
  if (error instanceof APIUserAbortError) {
    return new SiftError("timeout", 499, "The request was cancelled", { cause: error });
  }
  if (error instanceof APIConnectionTimeoutError) {
    return new SiftError("timeout", 504, `The ${provider} provider timed out`, {
      cause: error,
      isRetryable: true,
    });
  }
  if (error instanceof APIError) {
    const status = error.status ?? 0;
    return new UpstreamError(provider, {
      cause: error,
      isRetryable: status === 0 || status === 408 || status === 409 || status === 429 ||
        status >= 500,
      message: status === 429
        ? `The ${provider} provider is rate limiting requests`
        : `The ${provider} provider failed${status ? ` (status ${status})` : ""}`,
    });
  }
  return new UpstreamError(provider, { cause: error });
}

import { z } from "zod";
import { SiftError, UpstreamError } from "../../shared/errors.ts";

const PROVIDER = "Workers AI";

/** Cloudflare's API envelope: `{success, result, errors: [{code, message}], messages}`. */
export const envelopeSchema = z.object({
  success: z.boolean(),
  result: z.unknown().optional(),
  errors: z.array(z.looseObject({ code: z.number().optional(), message: z.string().optional() }))
    .optional(),
});

/** Statuses worth another try: throttled, or the service's own trouble. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/**
 * A failed Workers AI call as one of sift's errors. Cloudflare's own messages
 * (`errors[].message`) may name the account: they stay in `cause`.
 */
export function workersAiError(
  status: number,
  errors: readonly { code?: number | undefined; message?: string | undefined }[] = [],
): UpstreamError {
  const codes = errors.map((error) => error.code).filter((code) => code !== undefined);
  const cause = new Error(
    `Workers AI replied ${status}: ${JSON.stringify(errors).slice(0, 2000)}`,
  );
  return new UpstreamError(PROVIDER, {
    cause,
    isRetryable: isRetryableStatus(status),
    message: status === 429
      ? `The ${PROVIDER} provider is rate limiting requests`
      : status === 401 || status === 403
      ? `The ${PROVIDER} provider refused sift's credentials (status ${status})`
      : `The ${PROVIDER} provider failed (status ${status}${
        codes.length ? `, code ${codes.join(", ")}` : ""
      })`,
  });
}

/** A reply that is not what the model's documented output says. */
export function unreadableReply(cause: unknown): UpstreamError {
  return new UpstreamError(PROVIDER, {
    cause,
    message: `The ${PROVIDER} provider sent a reply sift cannot read`,
  });
}

/** What the binding throws (it has no status), or a network failure, as sift's error. */
export function toWorkersAiError(error: unknown, signal?: AbortSignal): SiftError {
  if (error instanceof SiftError) return error;
  if (signal?.aborted) {
    return new SiftError("timeout", 499, "The request was cancelled", { cause: error });
  }
  if (error instanceof DOMException && error.name === "TimeoutError") {
    return new SiftError("timeout", 504, `The ${PROVIDER} provider timed out`, {
      cause: error,
      isRetryable: true,
    });
  }
  return new UpstreamError(PROVIDER, { cause: error, isRetryable: true });
}

import { SiftError } from "../../../shared/errors.ts";
import { StepError } from "../../../shared/steps/call.ts";

/**
 * A step's 4xx as the caller's own error (a file the embed step refused is
 * the caller's to fix, not a failed step): its status, and its message
 * without the `The embed step failed: 400` prefix. Anything else as it was.
 */
export function asCallerError(error: unknown): unknown {
  if (!(error instanceof StepError)) return error;
  const status = error.stepStatus;
  if (status === undefined || status < 400 || status >= 500) return error;
  const message = error.message.replace(/^The [\w-]+ step failed: \d{3} /, "");
  return new SiftError(status === 404 ? "not_found" : "invalid_request", status, message, {
    cause: error,
  });
}

import { APIError } from "openai";
import { InvalidRequestError, SiftError } from "../errors.ts";

/**
 * A provider's 400 that blames a parameter the caller chose, as a 400 naming
 * that parameter; undefined for anything else (which stays a 502). The
 * provider's own message is not passed on: it may name its model or account.
 *
 * @example
 * callerParameterError(error, ["dimensions"]); // InvalidRequestError("dimensions: ...")
 */
export function callerParameterError(
  error: unknown,
  callerParameters: readonly string[],
): InvalidRequestError | undefined {
  const apiError = error instanceof SiftError ? error.cause : error;
  if (!(apiError instanceof APIError) || apiError.status !== 400) return undefined;
  const param = typeof apiError.param === "string" ? apiError.param.split(".")[0] : undefined;
  if (!param || !callerParameters.includes(param)) return undefined;
  return new InvalidRequestError(`${param}: the provider refused this value`, { cause: error });
}

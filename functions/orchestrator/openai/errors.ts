import type { z } from "zod";
import { type ErrorType, SiftError } from "../../../shared/errors.ts";
import { describeIssues, unrecognizedArguments } from "../../../shared/http/validate.ts";

export { type OpenAIErrorBody, toOpenAIError } from "../../../shared/http/error-shapes.ts";

/** A request error that names its field in OpenAI's `param` (and may carry a `code`). */
export class ChatRequestError extends SiftError {
  override name = "ChatRequestError";

  constructor(
    message: string,
    options: { param: string | null; code?: string; status?: 400 | 404 },
  ) {
    const status = options.status ?? 400;
    const type: ErrorType = status === 404 ? "not_found" : "invalid_request";
    super(type, status, message, {
      ...(options.param !== null ? { param: options.param } : {}),
      ...(options.code ? { code: options.code } : {}),
    });
  }
}

/**
 * A 400 from a zod failure: an unknown parameter in OpenAI's words (its
 * `param` null, as OpenAI sends it), else every problem in the message and
 * the first one's field as `param`.
 */
export function invalidBody(error: z.ZodError, schema: z.ZodType): ChatRequestError {
  const unrecognized = unrecognizedArguments(error, schema);
  if (unrecognized) return new ChatRequestError(unrecognized, { param: null });
  const path = error.issues[0]?.path ?? [];
  return new ChatRequestError(describeIssues(error, schema), {
    param: path.length > 0 ? path.join(".") : null,
  });
}

export function modelNotFound(model: string, known: readonly string[]): ChatRequestError {
  return new ChatRequestError(
    `model: the model "${model}" does not exist; sift's models are ${known.join(", ")}`,
    { param: "model", code: "model_not_found", status: 404 },
  );
}

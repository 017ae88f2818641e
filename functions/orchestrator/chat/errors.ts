import type { Context } from "hono";
import type { z } from "zod";
import type { AppEnv } from "../../../shared/http/app-env.ts";
import { type ErrorType, SiftError, toErrorBody } from "../../../shared/errors.ts";
import { describeIssues, unrecognizedArguments } from "../../../shared/http/validate.ts";

/** OpenAI's error body, which its clients read into `APIError`'s `param` and `code`. */
export type OpenAIErrorBody = {
  error: { message: string; type: string; param: string | null; code: string | null };
};

/** A request error that names its field in OpenAI's `param` (and may carry a `code`). */
export class ChatRequestError extends SiftError {
  override name = "ChatRequestError";
  readonly param: string | null;
  readonly code: string | null;

  constructor(
    message: string,
    options: { param: string | null; code?: string; status?: 400 | 404 },
  ) {
    const status = options.status ?? 400;
    const type: ErrorType = status === 404 ? "not_found" : "invalid_request";
    super(type, status, message);
    this.param = options.param;
    this.code = options.code ?? null;
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

function openAIType(status: number): string {
  if (status === 401) return "authentication_error";
  if (status === 403) return "permission_error";
  if (status === 429) return "rate_limit_error";
  return status >= 500 ? "server_error" : "invalid_request_error";
}

/**
 * Any thrown value in OpenAI's error shape, with only its public message
 * (see `toErrorBody`). `status` overrides the error's own, e.g. 502 for a
 * pipeline that failed behind the chat route.
 */
export function toOpenAIError(
  error: unknown,
  options: { status?: number } = {},
): { status: number; body: OpenAIErrorBody } {
  const { status: own, body } = toErrorBody(error);
  const status = options.status ?? own;
  const named = error instanceof ChatRequestError;
  return {
    status,
    body: {
      error: {
        message: body.error.message,
        type: openAIType(status),
        param: named ? error.param : null,
        // sift's own type says what failed behind a 5xx: a step, a timeout, the server.
        code: named ? error.code : status >= 500 ? body.error.type : null,
      },
    },
  };
}

type Handler = (c: Context<AppEnv>) => Promise<Response> | Response;

/** Every error of these routes in OpenAI's shape, so its clients read `param` and `code`. */
export function openAIErrors(handler: Handler): Handler {
  return async (c) => {
    try {
      return await handler(c);
    } catch (error) {
      const { status, body } = toOpenAIError(error);
      if (status >= 500) console.error(`${c.req.method} ${c.req.path} failed:`, error);
      return c.json(body, status as 400);
    }
  };
}

import { SiftError, toErrorBody } from "../errors.ts";

/** OpenAI's error body, which its clients read into `APIError`'s `param` and `code`. */
export type OpenAIErrorBody = {
  error: { message: string; type: string; param: string | null; code: string | null };
};

function openAIType(status: number): string {
  if (status === 401) return "authentication_error";
  if (status === 403) return "permission_error";
  if (status === 429) return "rate_limit_error";
  return status >= 500 ? "server_error" : "invalid_request_error";
}

/**
 * Any thrown value in OpenAI's error shape, with only its public message (see
 * `toErrorBody`): `param` the field at fault, `code` the error's own code,
 * or behind a 5xx sift's type (a step, a timeout, the server). `status`
 * overrides the error's own, e.g. 502 for a pipeline that failed behind a
 * chat route.
 *
 * @example
 * toOpenAIError(new InvalidRequestError("input: must not be empty", { param: "input" }));
 * // {status: 400, body: {error: {message, type: "invalid_request_error", param: "input", code: null}}}
 */
export function toOpenAIError(
  error: unknown,
  options: { status?: number } = {},
): { status: number; body: OpenAIErrorBody } {
  const { status: own, body } = toErrorBody(error);
  const status = options.status ?? own;
  const sift = error instanceof SiftError ? error : undefined;
  return {
    status,
    body: {
      error: {
        message: body.error.message,
        type: openAIType(status),
        param: sift?.param ?? null,
        code: sift?.code ?? (status >= 500 ? body.error.type : null),
      },
    },
  };
}

/** Cohere's error body, `{"message": ...}`, which its clients show as the error's body. */
export function toCohereError(error: unknown): { status: number; body: { message: string } } {
  const { status, body } = toErrorBody(error);
  return { status, body: { message: body.error.message } };
}

/** Whose error shape a route speaks: sift's own, OpenAI's, or Cohere's. */
export type ErrorShape = "sift" | "openai" | "cohere";

/**
 * The routes that speak another API's error shape, so an error raised before
 * the route runs (a key, a rate limit, a wrong method) reaches that API's
 * clients in the shape they read. `/v1/rerank` is sift's own route: its
 * Cohere v1 bodies answer errors in Cohere's shape from the route itself.
 */
const FOREIGN_SHAPES: readonly { pattern: RegExp; shape: ErrorShape }[] = [
  {
    pattern: /^\/v1\/(chat\/completions|embeddings|responses|models(\/[^/]+)?)\/?$/,
    shape: "openai",
  },
  // OpenAI's Files and Vector Stores API, every path under them.
  { pattern: /^\/v1\/(files|vector_stores)(\/.*)?$/, shape: "openai" },
  { pattern: /^\/v2\/rerank\/?$/, shape: "cohere" },
];

export function errorShapeOf(path: string): ErrorShape {
  return FOREIGN_SHAPES.find(({ pattern }) => pattern.test(path))?.shape ?? "sift";
}

/**
 * The shape of a path no route serves: a client that asks sift for an API it
 * lacks (openai-node's `files.list`, cohere-ai's `v2.chat`) is that API's
 * client, so `/v1/…` answers in OpenAI's shape and `/v2/…` in Cohere's, and
 * its SDK raises its own `NotFoundError` instead of failing to read the body.
 *
 * @example
 * unknownPathShape("/v1/files"); // "openai"
 * unknownPathShape("/v2/chat"); // "cohere"
 */
export function unknownPathShape(path: string): ErrorShape {
  if (/^\/v1\//.test(path)) return "openai";
  if (/^\/v2\//.test(path)) return "cohere";
  return "sift";
}

/** Any thrown value as the body and status `shape` speaks. */
export function errorReply(error: unknown, shape: ErrorShape): { status: number; body: unknown } {
  if (shape === "openai") return toOpenAIError(error);
  if (shape === "cohere") return toCohereError(error);
  return toErrorBody(error);
}

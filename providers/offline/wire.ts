/**
 * OpenAI's HTTP conventions, as the `openai` SDK reads them: JSON bodies, and
 * errors as `{error: {message, type, param, code}}`, which the SDK turns into
 * `BadRequestError`, `RateLimitError`, ... by status.
 */

/** A JSON response with OpenAI's content type. */
export function jsonResponse(body: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  headers.set("content-type", "application/json");
  return new Response(JSON.stringify(body), { ...init, headers });
}

/** An OpenAI-style error; `type` defaults to the one OpenAI uses for the status. */
export function errorResponse(
  status: number,
  message: string,
  options: { type?: string; param?: string; code?: string; headers?: HeadersInit } = {},
): Response {
  const type = options.type ?? (status >= 500 ? "server_error" : "invalid_request_error");
  return jsonResponse(
    { error: { message, type, param: options.param ?? null, code: options.code ?? null } },
    { status, ...(options.headers ? { headers: options.headers } : {}) },
  );
}

/** The 429 of the `http429` fault: retry hints in both headers the SDK honours. */
export function rateLimitResponse(): Response {
  return errorResponse(429, "Rate limit reached (offline model fault injection: http429).", {
    type: "requests",
    code: "rate_limit_exceeded",
    // The SDK prefers `retry-after-ms`; `retry-after: 0` is for clients that only know the standard one.
    headers: { "retry-after-ms": "10", "retry-after": "0" },
  });
}

/** The 500 of the `http500` fault. */
export function serverErrorResponse(): Response {
  return errorResponse(
    500,
    "The server had an error while processing your request (offline model fault injection: http500).",
  );
}

/**
 * A 200 whose JSON body stops halfway, as when a proxy drops the connection:
 * the `cut` fault for non-streaming routes.
 */
export function truncatedJsonResponse(body: unknown): Response {
  const text = JSON.stringify(body);
  return new Response(text.slice(0, Math.floor(text.length / 2)), {
    headers: { "content-type": "application/json" },
  });
}

/**
 * The one error family of sift. Every error a route can raise is a `SiftError`;
 * `app.onError` maps it to `{"error": {"type", "message"}}` with its status.
 * Anything else becomes a generic 500 and its message never reaches the caller.
 *
 * @example
 * throw new InvalidRequestError("query: must not be empty");
 */
export type ErrorType =
  | "invalid_request"
  | "unauthorized"
  | "not_found"
  | "method_not_allowed"
  | "conflict"
  | "payload_too_large"
  | "forbidden"
  | "unsupported_media_type"
  | "rate_limited"
  | "upstream_error"
  | "timeout"
  | "internal_error"
  | "not_configured"
  | "index_damaged";

export class SiftError extends Error {
  override name = "SiftError";
  readonly type: ErrorType;
  readonly status: number;
  /** True when the same call may succeed if tried again later. */
  readonly isRetryable: boolean;
  /** The request field at fault (`messages.2.content`): OpenAI's `param`; null when none is. */
  readonly param: string | null;
  /** A stable code a client may branch on (OpenAI's `code`, e.g. `model_not_found`). */
  readonly code: string | null;

  constructor(
    type: ErrorType,
    status: number,
    message: string,
    options: { cause?: unknown; isRetryable?: boolean; param?: string; code?: string } = {},
  ) {
    super(message, { cause: options.cause });
    this.type = type;
    this.status = status;
    this.isRetryable = options.isRetryable ?? false;
    this.param = options.param ?? null;
    this.code = options.code ?? null;
  }
}

/** A request the caller can fix: the message names the field and the reason. */
export class InvalidRequestError extends SiftError {
  override name = "InvalidRequestError";
  constructor(message: string, options: { cause?: unknown; param?: string; code?: string } = {}) {
    super("invalid_request", 400, message, options);
  }
}

export class UnauthorizedError extends SiftError {
  override name = "UnauthorizedError";
  constructor(message = "Missing or invalid API key") {
    super("unauthorized", 401, message);
  }
}

export class NotFoundError extends SiftError {
  override name = "NotFoundError";
  constructor(message: string) {
    super("not_found", 404, message);
  }
}

/** A known path asked with a method it does not serve; `Allow` lists the ones it does. */
export class MethodNotAllowedError extends SiftError {
  override name = "MethodNotAllowedError";
  readonly allowed: readonly string[];
  constructor(method: string, path: string, allowed: readonly string[]) {
    super(
      "method_not_allowed",
      405,
      `${path} does not take ${method}; it takes ${allowed.join(", ")}`,
      { code: "method_not_allowed" },
    );
    this.allowed = allowed;
  }
}

export class PayloadTooLargeError extends SiftError {
  override name = "PayloadTooLargeError";
  constructor(message: string) {
    super("payload_too_large", 413, message);
  }
}

/** The caller stopped sending its request body before it was whole (`BODY_READ_TIMEOUT_MS`). */
export class RequestTimeoutError extends SiftError {
  override name = "RequestTimeoutError";
  /**
   * The server itself closes the connection after this reply (and says so): a
   * body read it cannot cancel is still waiting. Otherwise the reply says it.
   */
  readonly serverCloses: boolean;
  constructor(message: string, options: { serverCloses?: boolean } = {}) {
    super("timeout", 408, message);
    this.serverCloses = options.serverCloses ?? false;
  }
}

/** Refused whoever asks: a foreign `Origin`, or a non-loopback `Host` on a loopback server. */
export class ForbiddenError extends SiftError {
  override name = "ForbiddenError";
  constructor(message: string) {
    super("forbidden", 403, message);
  }
}

/** A JSON route sent a body that does not say it is JSON. */
export class UnsupportedMediaTypeError extends SiftError {
  override name = "UnsupportedMediaTypeError";
  constructor(message: string) {
    super("unsupported_media_type", 415, message);
  }
}

/** The request clashes with what a resource already is (an evaluation id bound to another dataset). */
export class ConflictError extends SiftError {
  override name = "ConflictError";
  constructor(message: string) {
    super("conflict", 409, message);
  }
}

/** Over `RATE_LIMIT_PER_MINUTE`: 429; the caller may come back after `retryAfterSeconds`. */
export class RateLimitedError extends SiftError {
  override name = "RateLimitedError";
  readonly retryAfterSeconds: number;

  /** `cost`: what the refused request would have cost in all (1 for a plain request). */
  constructor(options: { limit: number; cost: number; retryAfterSeconds: number }) {
    const { limit, cost, retryAfterSeconds } = options;
    super(
      "rate_limited",
      429,
      cost <= 1
        ? `Rate limit of ${limit} requests per minute exceeded; retry after ${retryAfterSeconds} s`
        : cost > limit
        ? `This request schedules ${cost} steps, more than the rate limit of ${limit} per minute allows`
        : `This request schedules ${cost} steps, more than fit in the rate limit of ${limit} per ` +
          `minute right now; retry after ${retryAfterSeconds} s`,
      { isRetryable: cost <= limit },
    );
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** A provider (LLM, embeddings, index, cache) failed; its body stays in `cause`. */
export class UpstreamError extends SiftError {
  override name = "UpstreamError";
  constructor(
    provider: string,
    options: { cause?: unknown; isRetryable?: boolean; message?: string } = {},
  ) {
    super(
      "upstream_error",
      502,
      options.message ?? `The ${provider} provider failed`,
      options,
    );
  }
}

/**
 * A file of the embedded index fails its checks where no crash could have
 * torn it: every index route and `/healthz` say which file, where, and what
 * the operator can do; nothing is written over it. 503: the service cannot
 * serve the index until someone acts, and retrying will not help.
 *
 * @example
 * new IndexDamagedError({ file: ".data/index.log", offset: 703504, why: "a record fails its checksum" });
 */
export class IndexDamagedError extends SiftError {
  override name = "IndexDamagedError";
  readonly file: string;
  readonly offset: number;
  constructor(options: { file: string; offset: number; why: string; cause?: unknown }) {
    const { file, offset, why } = options;
    super(
      "index_damaged",
      503,
      `The index file ${file} is damaged at byte ${offset} (${why}); nothing was changed. ` +
        `Restore ${file} from a backup, or stop sift, move it aside ` +
        `(mv ${file} ${file}.damaged) and start again: the index then holds what the other ` +
        "index files hold, and the documents only the damaged file held must be ingested again.",
      options.cause === undefined ? {} : { cause: options.cause },
    );
    this.file = file;
    this.offset = offset;
  }
}

/** Config that cannot be used: thrown at start-up and per request. */
export class ConfigError extends SiftError {
  override name = "ConfigError";
  constructor(message: string) {
    super("internal_error", 500, message);
  }
}

/** The public body for any thrown value: internal details never leave the process. */
export function toErrorBody(
  error: unknown,
): { status: number; body: { error: { type: ErrorType; message: string } } } {
  if (error instanceof SiftError) {
    // Internal messages may name files or hosts: the caller gets a generic one.
    const message = error instanceof ConfigError
      ? "The server is misconfigured"
      : error.type === "internal_error"
      ? "Internal server error"
      : error.message;
    return {
      status: error.status,
      body: { error: { type: error.type, message } },
    };
  }
  return {
    status: 500,
    body: { error: { type: "internal_error", message: "Internal server error" } },
  };
}

import { InvalidRequestError, SiftError, UpstreamError } from "../../shared/errors.ts";

/**
 * The Postgres index cannot be reached (refused, dropped, timed out, shutting
 * down): 503, worth retrying; sift reconnects on the next call by itself.
 */
export class IndexUnavailableError extends SiftError {
  override name = "IndexUnavailableError";
  constructor(why: string, options: { cause?: unknown } = {}) {
    super(
      "upstream_error",
      503,
      `The index (Postgres) is unavailable: ${why}. Retry shortly.`,
      { ...options, isRetryable: true },
    );
  }
}

/**
 * One call took too long: the server cancelled its statement at
 * `statement_timeout` or `lock_timeout`, or no answer came within
 * `DATABASE_TIMEOUT_MS`. 503 and retryable, like the index being away, but
 * only this request fails: its connection stays in the pool.
 *
 * @example
 * new IndexTimeoutError(30_000, "on one statement"); // "The index (Postgres) took over 30000 ms on one statement…"
 */
export class IndexTimeoutError extends IndexUnavailableError {
  override name = "IndexTimeoutError";
  constructor(ms: number, what: string, options: { cause?: unknown } = {}) {
    super("", options);
    this.message = `The index (Postgres) took over ${ms} ms ${what}, and gave up. Retry shortly.`;
  }
}

/** How long the server lets one statement run, and one lock wait last, in ms. */
export type StatementBounds = { statementMs: number; lockMs: number };

/** SQLSTATE classes that mean the server or the connection is going or gone. */
const UNAVAILABLE_STATES = /^(08|53|57P0[1-3])/;
/** Class 22, data exceptions: a value the server cannot take (a NUL, a lone surrogate in JSON). */
const DATA_EXCEPTION_STATES = /^22/;
/** `statement_timeout` (or a cancel request) ended the statement. */
const CANCELLED_STATE = "57014";
/** `lock_timeout` ended a wait for a lock. */
const LOCK_TIMEOUT_STATE = "55P03";
/** Raised by `sift_dense` for a query vector of another width than the namespace holds. */
const WRONG_WIDTH_STATE = "SW001";
/** Conflicts between concurrent transactions: the transaction may simply run again. */
export const RETRY_STATES = new Set(["40001", "40P01"]);

/**
 * A postgres.js failure as sift's error: connection failures and shutdowns
 * are `IndexUnavailableError`; a statement cancelled at its timeout is an
 * `IndexTimeoutError` (503, retryable); a value the server refused as data
 * (SQLSTATE class 22) is the caller's (400, not retryable); any other error
 * the server answered with is an `UpstreamError` (502) whose details stay in
 * `cause`.
 */
export function toIndexError(error: unknown, bounds?: StatementBounds): SiftError {
  if (error instanceof SiftError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  const severity = (error as { severity?: unknown } | null)?.severity;
  if (typeof code === "string" && typeof severity === "string") {
    if (code === WRONG_WIDTH_STATE) {
      return new InvalidRequestError(
        `${(error as Error).message}: re-ingest after changing the embedding model`,
      );
    }
    if (code === CANCELLED_STATE && bounds) {
      return new IndexTimeoutError(bounds.statementMs, "on one statement (DATABASE_TIMEOUT_MS)", {
        cause: error,
      });
    }
    if (code === LOCK_TIMEOUT_STATE && bounds) {
      return new IndexTimeoutError(
        bounds.lockMs,
        "waiting for a lock (lock_timeout)",
        { cause: error },
      );
    }
    if (DATA_EXCEPTION_STATES.test(code)) {
      // The server's own words may quote the value: the caller gets the class, the log the rest.
      return new InvalidRequestError(
        `The index (Postgres) refused a value of this request as invalid data (SQLSTATE ${code}): ` +
          "check its text, metadata and filter values",
        { cause: error },
      );
    }
    if (UNAVAILABLE_STATES.test(code)) {
      return new IndexUnavailableError(`the server is shutting down or full (${code})`, {
        cause: error,
      });
    }
    return new UpstreamError("index (Postgres)", {
      cause: error,
      isRetryable: RETRY_STATES.has(code),
      message: "The index (Postgres) failed a statement",
    });
  }
  // No SQLSTATE: the connection itself (refused, reset, closed, its timeout).
  return new IndexUnavailableError(
    typeof code === "string" ? `no connection (${code})` : "no connection",
    { cause: error },
  );
}

/**
 * A server or pooler that refuses the session settings sift sends at connect
 * (PgBouncer: `unsupported startup parameter: statement_timeout`, 08P01).
 */
export function refusedStartupParameter(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === "08P01" && typeof message === "string" &&
    /startup parameter/i.test(message);
}

/** A frame of postgres.js's own source, wherever Deno or npm put the package. */
const POSTGRES_SOURCE =
  /[\\/]postgres(?:@[^\\/]+[\\/]node_modules[\\/]postgres|[\\/]\d[^\\/]*)[\\/](?:cf[\\/]|cjs[\\/])?src[\\/]/;

/**
 * True when a stray rejection or uncaught error came from the postgres.js
 * client: an error the server answered with, or one whose stack runs through
 * postgres.js's source (its timers and socket handlers, or a query it made).
 */
export function fromPostgresClient(reason: unknown): boolean {
  if (!(reason instanceof Error)) return false;
  return reason.name === "PostgresError" || POSTGRES_SOURCE.test(reason.stack ?? "");
}

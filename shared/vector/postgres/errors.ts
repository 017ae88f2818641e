import { InvalidRequestError, SiftError, UpstreamError } from "../../errors.ts";

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

/** SQLSTATE classes that mean the server or the connection is going or gone. */
const UNAVAILABLE_STATES = /^(08|53|57P0[1-3])/;
/** Raised by `sift_dense` for a query vector of another width than the namespace holds. */
const WRONG_WIDTH_STATE = "SW001";
/** Conflicts between concurrent transactions: the transaction may simply run again. */
export const RETRY_STATES = new Set(["40001", "40P01"]);

/**
 * A postgres.js failure as sift's error: connection failures and shutdowns
 * are `IndexUnavailableError`; an error the server answered with is an
 * `UpstreamError` (502) whose details stay in `cause`.
 */
export function toIndexError(error: unknown): SiftError {
  if (error instanceof SiftError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  const severity = (error as { severity?: unknown } | null)?.severity;
  if (typeof code === "string" && typeof severity === "string") {
    if (code === WRONG_WIDTH_STATE) {
      return new InvalidRequestError(
        `${(error as Error).message}: re-ingest after changing the embedding model`,
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

/**
 * What Deno throws from a request body's read when the client's connection
 * closes mid-body: `BadResource` ("Cannot read request body as underlying
 * resource unavailable") after a FIN, `Http` ("unexpected EOF while reading
 * HTTP/1 body") after a reset, and the socket errors. Workers has no `Deno`.
 */
const DISCONNECTS: readonly (abstract new (...args: never[]) => Error)[] =
  typeof Deno === "undefined" ? [] : [
    Deno.errors.BadResource,
    Deno.errors.Http,
    Deno.errors.ConnectionReset,
    Deno.errors.ConnectionAborted,
    Deno.errors.BrokenPipe,
    Deno.errors.UnexpectedEof,
  ];

/**
 * A request body's read that failed: the client closed its connection
 * mid-body. Thrown by a reader that knows the error came from the body, as on
 * Workers, where it is a plain `Error("Network connection lost.")` that an
 * upstream call could throw too.
 */
export class ClientGoneError extends Error {
  override name = "ClientGoneError";
  constructor(cause: unknown) {
    super("The client went away while sending its body", { cause });
  }
}

/**
 * Whether `error` is the client going away while its request body was being
 * read (a cancelled upload, a closed tab): not a failure of the server, so it
 * is logged as one line and answered as nginx does (499), never as a 5xx.
 * On Deno any body reader's error qualifies (its causes too) once the body
 * was read; on Workers, a `ClientGoneError`.
 *
 * @example
 * if (clientWentAway(error, c.req.raw)) console.warn("the client went away");
 */
export function clientWentAway(error: unknown, request: Request): boolean {
  if (error instanceof ClientGoneError) return true;
  if (!request.bodyUsed) return false;
  let cause = error;
  for (let depth = 0; depth < 4 && cause instanceof Error; depth++) {
    if (DISCONNECTS.some((kind) => cause instanceof kind)) return true;
    cause = cause.cause;
  }
  return false;
}

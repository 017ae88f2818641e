import type { Context, MiddlewareHandler } from "hono";

/**
 * Leaves the connection to the server that owns it: drops the `connection`
 * and `keep-alive` headers a handler or library set (hono's `streamSSE` and
 * the MCP SDK write `connection: keep-alive` on every stream), so `Deno.serve`
 * and workerd write the one `connection` header themselves. The one
 * exception is `connection: close`, which sift sets on purpose (a 408 whose
 * body never came: that connection must not take another request).
 * Register first, so it sees every reply, error replies included.
 */
export const hopByHopHeaders: MiddlewareHandler = async (c, next) => {
  await next();
  dropHopByHop(c);
};

/** `hopByHopHeaders`'s work on the finished reply (for a middleware that does several such steps). */
export function dropHopByHop(c: Context): void {
  const connection = c.res.headers.get("connection");
  const keepAlive = c.res.headers.has("keep-alive");
  if (!keepAlive && (connection === null || connection.toLowerCase() === "close")) return;
  const strip = (headers: Headers) => {
    if (connection !== null && connection.toLowerCase() !== "close") headers.delete("connection");
    headers.delete("keep-alive");
  };
  try {
    strip(c.res.headers);
  } catch {
    // A response passed through from fetch() has immutable headers: copy it first.
    c.res = new Response(c.res.body, c.res);
    strip(c.res.headers);
  }
}

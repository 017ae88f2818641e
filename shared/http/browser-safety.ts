import type { Context, MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import { ForbiddenError } from "../errors.ts";
import { isJsonMediaType } from "./content-type.ts";

/**
 * `x-content-type-options: nosniff` on every response, and `cache-control:
 * no-store` on JSON ones that set no caching of their own: replies are
 * per-caller and often behind an API key, so no shared cache keeps them.
 * Register first, so it also sees error replies.
 */
export const securityHeaders: MiddlewareHandler = async (c, next) => {
  await next();
  writeSecurityHeaders(c);
};

/** `securityHeaders`'s work on the finished reply (for a middleware that does several such steps). */
export function writeSecurityHeaders(c: Context): void {
  const set = (headers: Headers) => {
    headers.set("x-content-type-options", "nosniff");
    if (isJsonMediaType(headers.get("content-type")) && !headers.has("cache-control")) {
      headers.set("cache-control", "no-store");
    }
  };
  try {
    set(c.res.headers);
  } catch {
    // A response passed through from fetch() has immutable headers: copy it first.
    c.res = new Response(c.res.body, c.res);
    set(c.res.headers);
  }
}

/** Headers a browser script may read on a cross-origin reply. */
const EXPOSED = [
  "x-request-id",
  "retry-after",
  "ratelimit-limit",
  "ratelimit-remaining",
  "ratelimit-reset",
];

/**
 * Refuses (403) a request whose `Origin` is not one of `originsOf(c)`
 * (`CORS_ORIGINS`), and answers CORS, preflights included, for those that
 * are. Browsers send `Origin` on every cross-origin fetch and every POST, so
 * no other web page can write to sift; clients outside a browser send none.
 */
export function crossOrigin(originsOf: (c: Context) => readonly string[]): MiddlewareHandler {
  const answer = cors({
    origin: (origin, c) => originsOf(c).includes(origin) ? origin : null,
    exposeHeaders: EXPOSED,
    maxAge: 600,
  });
  return async (c, next) => {
    const origin = c.req.header("origin");
    // A page sift serves itself (the console) calls its own origin: no CORS is needed.
    if (origin !== undefined && isSameOrigin(origin, c.req.header("host") ?? hostOf(c.req.url))) {
      return await next();
    }
    if (origin !== undefined && !originsOf(c).includes(origin)) {
      throw new ForbiddenError("origin: not one of the web origins CORS_ORIGINS lets in");
    }
    if (origin === undefined && c.req.method !== "OPTIONS") return await noOrigin(c, next);
    return await answer(c, next);
  };
}

const EXPOSED_LIST = EXPOSED.join(",");

/**
 * What hono's `cors` does for a request with no `Origin` (every client outside
 * a browser), the same headers written, on the finished reply: hono's
 * `c.header("Vary")` after the route copies the whole response, and a header
 * written before it makes a placeholder reply that every route's reply is
 * then copied onto (together a fifth of a `/healthz` in-process).
 */
async function noOrigin(c: Context, next: () => Promise<void>): Promise<void> {
  await next();
  writeNoOriginHeaders(c);
}

/**
 * What `crossOrigin` writes on the finished reply to a request with no
 * `Origin` that is not a preflight (for a middleware that does several such steps).
 */
export function writeNoOriginHeaders(c: Context): void {
  const write = (headers: Headers) => {
    if (!headers.has("Access-Control-Expose-Headers")) {
      headers.set("Access-Control-Expose-Headers", EXPOSED_LIST);
    }
    headers.append("Vary", "Origin");
  };
  try {
    write(c.res.headers);
  } catch {
    // A response passed through from fetch() has immutable headers: copy it first.
    c.res = new Response(c.res.body, c.res);
    write(c.res.headers);
  }
}

const hostOf = (url: string) => new URL(url).host;

/**
 * Whether `Origin` names the host the request was sent to, as Go's
 * `CrossOriginProtection` decides it: a browser sets `Origin` itself, so
 * another site's page cannot claim this host. The scheme is not compared,
 * since a proxy in front may end TLS. (DNS rebinding, a foreign name pointed
 * at this server, is refused by the loopback `Host` guard on local servers.)
 */
export function isSameOrigin(origin: string, host: string): boolean {
  return URL.canParse(origin) && new URL(origin).host === host.toLowerCase();
}

import type { Context, MiddlewareHandler, Next } from "hono";
import type { AppEnv } from "./app-env.ts";
import type { ApiKeyEntry } from "../tenants/keys.ts";
import { SiftError, UnauthorizedError } from "../errors.ts";
import { addressKey, originOf } from "../ratelimit/origin.ts";
import { scopeDepsToTenant } from "../tenants/scope.ts";
import { FailedAuthThrottle } from "./auth-throttle.ts";

/** Compares in time that depends only on the candidate's length, not on where it differs. */
export function timingSafeEqual(candidate: string, expected: string): boolean {
  const a = new TextEncoder().encode(candidate);
  const b = new TextEncoder().encode(expected);
  let difference = a.length ^ b.length;
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ (b[i % (b.length || 1)] ?? 0);
  return difference === 0;
}

/** The client's address as the throttle counts it; none for sift's own requests. */
function throttledAddressOf(request: Request): string | undefined {
  const origin = originOf(request);
  return origin.kind === "external" && origin.address ? addressKey(origin.address) : undefined;
}

/**
 * Bearer-key check when `API_KEYS` is set; open when it is not (local
 * development). Every key is compared, so timing does not tell which matched.
 * The matched key's tenant, when it names one, scopes this request's deps
 * (`tenants/scope.ts`): the tenant comes from the key on every hop, never
 * from anything else a caller sends. Wrong keys are counted per client
 * address (`AUTH_FAILURES_PER_MINUTE`); one instance per app.
 */
export function requireApiKey(): MiddlewareHandler<AppEnv> {
  const throttle = new FailedAuthThrottle();
  const check = async (c: Context<AppEnv>, next: Next, entries: readonly ApiKeyEntry[]) => {
    const address = throttledAddressOf(c.req.raw);
    const limit = c.get("config").authFailuresPerMinute;
    const wait = address ? throttle.retryAfterSeconds(address, limit) : undefined;
    if (wait !== undefined) {
      c.header("Retry-After", String(wait));
      throw new SiftError(
        "rate_limited",
        429,
        `Too many failed authentications from this address; retry after ${wait} s`,
        { isRetryable: true },
      );
    }
    const header = c.req.header("authorization") ?? "";
    const token = /^bearer\s+/i.test(header) ? header.replace(/^bearer\s+/i, "").trim() : "";
    let matched: { tenant?: string } | undefined;
    for (const entry of entries) {
      if (timingSafeEqual(token, entry.key) && !matched) matched = entry;
    }
    if (!matched) {
      if (address) throttle.fail(address);
      throw new UnauthorizedError();
    }
    c.set("tenant", matched.tenant);
    if (matched.tenant) c.set("deps", scopeDepsToTenant(c.var.deps, matched.tenant));
    await next();
  };
  // Not an async function: with no keys (or a webhook) the request goes on without a promise
  // and a frame of its own here, which every request paid.
  return (c, next) => {
    const entries = c.get("config").apiKeyEntries;
    // Incoming webhooks carry a signature instead, checked by their route.
    if (entries.length === 0 || c.req.path.startsWith("/v1/webhooks/")) return next();
    return check(c, next, entries);
  };
}

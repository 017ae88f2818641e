import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./app-env.ts";
import { UnauthorizedError } from "../errors.ts";

/** Compares in time that depends only on the candidate's length, not on where it differs. */
export function timingSafeEqual(candidate: string, expected: string): boolean {
  const a = new TextEncoder().encode(candidate);
  const b = new TextEncoder().encode(expected);
  let difference = a.length ^ b.length;
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ (b[i % (b.length || 1)] ?? 0);
  return difference === 0;
}

/**
 * Bearer-key check when `API_KEYS` is set; open when it is not (local
 * development). Every key is compared, so timing does not tell which matched.
 */
export const requireApiKey: MiddlewareHandler<AppEnv> = async (c, next) => {
  const keys = c.var.config.apiKeys;
  // Incoming webhooks carry a signature instead, checked by their route.
  if (keys.length > 0 && !c.req.path.startsWith("/v1/webhooks/")) {
    const header = c.req.header("authorization") ?? "";
    const token = /^bearer\s+/i.test(header) ? header.replace(/^bearer\s+/i, "").trim() : "";
    let matched = false;
    for (const key of keys) matched = timingSafeEqual(token, key) || matched;
    if (!matched) throw new UnauthorizedError();
  }
  await next();
};

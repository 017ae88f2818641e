import type { Hono } from "hono";
import type { Config } from "../config.ts";
import type { RateLimitState } from "../ratelimit/port.ts";
import type { Deps } from "../deps.ts";
import type { StepContext } from "../steps/transport.ts";

/**
 * Hono's typing for sift: `c.env` is the raw environment (variables, and on
 * Workers the bindings too), `c.var.deps` this request's deps, `c.var.steps`
 * what it needs to call other functions. A module of its own so the server
 * and the middleware it mounts (auth, rate limit, OpenAPI) import it without
 * importing each other.
 */
export type AppEnv = {
  Bindings: Record<string, unknown>;
  Variables: {
    config: Config;
    deps: Deps;
    steps: StepContext;
    /** The caller's tenant, from its API key (docs/tenants.md); undefined for a bare key. */
    tenant?: string | undefined;
    /** Set when this request is rate limited (`RATE_LIMIT_PER_MINUTE`). */
    rateLimit?: RateLimitState;
  };
};

/** Adds routes to an app. */
export type Mount = (app: Hono<AppEnv>) => void;

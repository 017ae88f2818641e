import type { Context, MiddlewareHandler, Next } from "hono";
import type { Config } from "../config.ts";
import { RateLimitedError } from "../errors.ts";
import { sha256Hex } from "../hash.ts";
import type { AppEnv } from "../http/app-env.ts";
import { MemoryRateLimiter } from "./memory.ts";
import { addressKey, originOf, type RequestOrigin } from "./origin.ts";
import type { RateLimitDecision, RateLimiter, RateLimitState } from "./port.ts";
export type { RateLimitState };

/**
 * The limiter a request over `limit` a minute uses, picked by the
 * composition from the config and environment (a platform binding, a shared
 * store); `undefined`: this app's in-memory one.
 */
export type LimiterFor = (
  limit: number,
  config: Config,
  env: Record<string, unknown>,
) => RateLimiter | undefined;

/** The caller's key: a hash of its API key when keys are required, else its address. */
async function keyOf(c: Context<AppEnv>, origin: RequestOrigin): Promise<string> {
  if (origin.kind === "forwarded") return origin.key;
  if (c.var.config.apiKeys.length > 0) {
    const header = c.req.header("authorization") ?? "";
    const token = header.replace(/^bearer\s+/i, "").trim();
    // Hashed: the raw key never reaches a log, a counter name or Redis.
    return `key:${(await sha256Hex(token)).slice(0, 32)}`;
  }
  return origin.kind === "external" && origin.address ? addressKey(origin.address) : "ip:unknown";
}

function secondsUntil(at: number): number {
  return Math.max(1, Math.ceil((at - Date.now()) / 1000));
}

function writeHeaders(c: Context<AppEnv>, decision: RateLimitDecision): void {
  c.header("RateLimit-Limit", String(decision.limit));
  if (decision.remaining !== undefined) {
    c.header("RateLimit-Remaining", String(decision.remaining));
  }
  if (decision.resetAt !== undefined) {
    c.header("RateLimit-Reset", String(secondsUntil(decision.resetAt)));
  }
  if (!decision.allowed && decision.resetAt !== undefined) {
    c.header("Retry-After", String(secondsUntil(decision.resetAt)));
  }
}

async function charge(c: Context<AppEnv>, state: RateLimitState, cost: number): Promise<void> {
  const total = state.charged + cost;
  if (total > state.limit) {
    // Never fits: refused before the limiter is asked, so nothing is used up (the Workers
    // binding could not give back the units it granted before saying no).
    throw new RateLimitedError({ limit: state.limit, cost: total, retryAfterSeconds: 60 });
  }
  let decision: RateLimitDecision;
  try {
    decision = await state.limiter.consume(state.key, cost);
  } catch (error) {
    // A limiter that is down must not take the service down with it.
    console.error(`rate limiter (${state.limiter.name}) failed, request let through:`, error);
    return;
  }
  state.decision = decision;
  if (decision.allowed) state.charged += cost;
  writeHeaders(c, decision);
  if (!decision.allowed) {
    throw new RateLimitedError({
      limit: decision.limit,
      cost: total,
      retryAfterSeconds: decision.resetAt === undefined ? 60 : secondsUntil(decision.resetAt),
    });
  }
}

/**
 * Counts each request from outside against its caller's limit of
 * `RATE_LIMIT_PER_MINUTE`, after auth; a request over it gets 429 with
 * `Retry-After`. Every limited response carries `RateLimit-Limit`,
 * `RateLimit-Remaining` and `RateLimit-Reset` (seconds). Requests sift sends
 * to itself are not counted (see `origin.ts`). The in-memory limiter belongs
 * to the app that made this middleware: one per process.
 */
export function rateLimit(limiterFor: LimiterFor): MiddlewareHandler<AppEnv> {
  let memory: MemoryRateLimiter | undefined;
  let memoryLimit = 0;
  const memoryFor = (limit: number) => {
    if (!memory || memoryLimit !== limit) {
      memory = new MemoryRateLimiter({ limit });
      memoryLimit = limit;
    }
    return memory;
  };
  const limited = async (c: Context<AppEnv>, next: Next, limit: number, origin: RequestOrigin) => {
    // A forwarded request was counted by the Worker that forwarded it.
    const state: RateLimitState = {
      limiter: limiterFor(limit, c.var.config, c.env ?? {}) ?? memoryFor(limit),
      limit,
      key: await keyOf(c, origin),
      charged: origin.kind === "forwarded" ? 1 : 0,
    };
    c.set("rateLimit", state);
    if (origin.kind === "external") await charge(c, state, 1);
    const counted = state.decision;
    await next();
    // Handlers may charge more (`chargeRateLimit`), and a forwarded
    // response is not built by this context: the final response gets the latest.
    if (state.decision && (state.decision !== counted || !c.res.headers.has("RateLimit-Limit"))) {
      writeHeaders(c, state.decision);
    }
  };
  // Not an async function: with no limit (or a request sift sent itself) the request goes on
  // without a promise and a frame of its own here, which every request paid.
  return (c, next) => {
    const limit = c.get("config").rateLimit?.perMinute;
    if (!limit) return next();
    const origin = originOf(c.req.raw);
    if (origin.kind === "in-process" || origin.kind === "internal") return next();
    return limited(c, next, limit, origin);
  };
}

/**
 * Makes this request cost `cost` units in all: routes that schedule work (an
 * evaluation's questions × variants, a job) pay for that work instead of one
 * request, so only what goes beyond the unit already counted is charged.
 * Throws `RateLimitedError` (429) when it does not fit in the caller's
 * window; does nothing when limits are off or the request is sift's own.
 *
 * @example
 * await chargeRateLimit(c, questions.length * variants.length);
 */
export async function chargeRateLimit(c: Context<AppEnv>, cost: number): Promise<void> {
  const state = c.get("rateLimit");
  if (!state || cost <= state.charged) return;
  await charge(c, state, cost - state.charged);
}

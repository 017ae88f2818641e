import { Ratelimit } from "@upstash/ratelimit";
import type { Redis } from "@upstash/redis";
import { createRedisClient } from "./redis-cache.ts";
import { UpstreamError } from "../../shared/errors.ts";
import type { RateLimitDecision, RateLimiter } from "../../shared/ratelimit/port.ts";

/** How long one limiter call may take before the request goes through unlimited. */
const DEFAULT_TIMEOUT_MS = 1_000;

/**
 * `@upstash/ratelimit` behind the port: a fixed window of one minute per key
 * in Upstash Redis, shared by every process and Worker that uses the same
 * database. Construction does no I/O, so it is built per request from config.
 *
 * The SDK's fixed window counts a refused charge too; a refused charge of more
 * than one unit (an evaluation that does not fit) is handed back, so it does
 * not eat the caller's window. A call slower than `timeoutMs` is let through,
 * as the SDK does; a failing call is an `UpstreamError`.
 *
 * @example
 * const limiter = new UpstashRateLimiter({ url, token, limit: 30 });
 * await limiter.consume("key:3f2a…", 1);
 */
export class UpstashRateLimiter implements RateLimiter {
  readonly name = "upstash-redis";
  readonly #ratelimit: Ratelimit;
  readonly #limit: number;

  constructor(
    options:
      & { limit: number; windowSeconds?: number; prefix?: string; timeoutMs?: number }
      & ({ url: string; token: string } | { redis: Redis }),
  ) {
    this.#limit = options.limit;
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#ratelimit = new Ratelimit({
      redis: "redis" in options
        ? options.redis
        : createRedisClient({ url: options.url, token: options.token, timeoutMs }),
      limiter: Ratelimit.fixedWindow(options.limit, `${options.windowSeconds ?? 60} s`),
      prefix: options.prefix ?? "sift:ratelimit",
      timeout: timeoutMs,
      // Built per request: a per-instance block cache would only ever be empty.
      ephemeralCache: false,
      analytics: false,
      enableTelemetry: false,
    });
  }

  async consume(key: string, cost: number): Promise<RateLimitDecision> {
    try {
      const result = await this.#ratelimit.limit(key, { rate: cost });
      if (result.reason === "timeout") return { allowed: true, limit: this.#limit };
      if (!result.success && cost > 1) {
        const refunded = await this.#ratelimit.limit(key, { rate: -cost });
        return {
          allowed: false,
          limit: result.limit,
          remaining: refunded.remaining,
          resetAt: result.reset,
        };
      }
      return {
        allowed: result.success,
        limit: result.limit,
        remaining: result.remaining,
        resetAt: result.reset,
      };
    } catch (error) {
      throw new UpstreamError("rate limiter", { cause: error, isRetryable: true });
    }
  }
}

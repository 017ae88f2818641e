/**
 * What a limiter decided for one charge. `remaining` and `resetAt` are
 * undefined when the limiter cannot tell (the Workers binding only says yes
 * or no).
 */
export type RateLimitDecision = {
  allowed: boolean;
  /** Units allowed per window. */
  limit: number;
  /** Units left in the current window after this charge. */
  remaining?: number;
  /** When the current window ends (epoch ms). */
  resetAt?: number;
};

/**
 * The rate-limiter port: one window of `limit` units per key. Adapters: the
 * Workers rate-limit binding, `@upstash/ratelimit`, and an in-memory fixed
 * window (per process).
 *
 * @example
 * const decision = await limiter.consume("key:3f2a…", 1);
 * if (!decision.allowed) throw new RateLimitedError(...);
 */
export interface RateLimiter {
  /** What serves the limit, for logs: `memory`, `upstash-redis`, `workers-binding`. */
  readonly name: string;
  /**
   * Charges `cost` units to `key` if they fit in its current window. A charge
   * that does not fit is refused whole and leaves the window as it was
   * (as far as the backing limiter allows).
   */
  consume(key: string, cost: number): Promise<RateLimitDecision>;
}

/** This request's limiter and key, and the last decision its charges got. */
export type RateLimitState = {
  limiter: RateLimiter;
  /** `RATE_LIMIT_PER_MINUTE`. */
  limit: number;
  key: string;
  /** Units this request has paid so far (a forwarded one paid 1 where it came in). */
  charged: number;
  decision?: RateLimitDecision;
};

import type { RateLimitDecision, RateLimiter } from "../../shared/ratelimit/port.ts";

/** The Workers rate-limit binding (`[[ratelimits]]` in wrangler.toml). */
export type RateLimitBinding = { limit(options: { key: string }): Promise<{ success: boolean }> };

export function isRateLimitBinding(value: unknown): value is RateLimitBinding {
  return typeof value === "object" && value !== null &&
    typeof (value as Partial<RateLimitBinding>).limit === "function";
}

/**
 * The Workers rate-limit binding behind the port. The binding's own `limit`
 * and `period` (10 or 60 s, fixed in wrangler.toml) decide; `limit` here is
 * `RATE_LIMIT_PER_MINUTE`, reported in headers and used to refuse a charge
 * that could never fit. The binding answers only yes or no, so remaining
 * units and the window's end are unknown: a refusal says to come back after
 * one period, the longest a window can last.
 *
 * A charge of `cost` units is `cost` calls, stopping at the first refusal.
 */
export class WorkersBindingRateLimiter implements RateLimiter {
  readonly name = "workers-binding";
  readonly #binding: RateLimitBinding;
  readonly #limit: number;
  readonly #periodMs: number;
  readonly #now: () => number;

  constructor(
    binding: RateLimitBinding,
    options: { limit: number; periodSeconds?: number; now?: () => number },
  ) {
    this.#binding = binding;
    this.#limit = options.limit;
    this.#periodMs = (options.periodSeconds ?? 60) * 1000;
    this.#now = options.now ?? Date.now;
  }

  async consume(key: string, cost: number): Promise<RateLimitDecision> {
    const refused = {
      allowed: false,
      limit: this.#limit,
      remaining: 0,
      resetAt: this.#now() + this.#periodMs,
    };
    if (cost > this.#limit) return refused;
    for (let unit = 0; unit < cost; unit++) {
      const { success } = await this.#binding.limit({ key });
      if (!success) return refused;
    }
    return { allowed: true, limit: this.#limit };
  }
}

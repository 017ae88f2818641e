import { UpstashRateLimiter } from "../adapters/upstash/ratelimit.ts";
import {
  isRateLimitBinding,
  WorkersBindingRateLimiter,
} from "../adapters/workers/ratelimit-binding.ts";
import type { LimiterFor } from "../shared/ratelimit/middleware.ts";

/**
 * The limiter a request uses: the Workers binding `RATE_LIMITER` when bound,
 * else Upstash Redis when configured, else (undefined) the app's in-memory one.
 */
export const limiterFor: LimiterFor = (limit, config, env) => {
  const binding = env.RATE_LIMITER;
  if (isRateLimitBinding(binding)) return new WorkersBindingRateLimiter(binding, { limit });
  if (config.redis) return new UpstashRateLimiter({ ...config.redis, limit });
  return undefined;
};

import type { RateLimitDecision, RateLimiter } from "./port.ts";

type Window = { startedAt: number; used: number };

/**
 * A fixed window per key, in this process's memory: the embedded default when
 * neither the Workers binding nor Upstash Redis is there. Each key's window
 * starts at its first charge. Several processes (or Workers isolates) each
 * count on their own, so the limit holds per process only.
 *
 * Memory stays bounded by the keys seen within one window: expired windows are
 * dropped in a sweep at most once per window, and a key's own expired window
 * is replaced on its next charge.
 *
 * @example
 * const limiter = new MemoryRateLimiter({ limit: 30, windowMs: 60_000 });
 * (await limiter.consume("ip:203.0.113.7", 1)).allowed; // true
 */
export class MemoryRateLimiter implements RateLimiter {
  readonly name = "memory";
  readonly #limit: number;
  readonly #windowMs: number;
  readonly #now: () => number;
  readonly #windows = new Map<string, Window>();
  #nextSweepAt: number;

  constructor(options: { limit: number; windowMs?: number; now?: () => number }) {
    this.#limit = options.limit;
    this.#windowMs = options.windowMs ?? 60_000;
    this.#now = options.now ?? Date.now;
    this.#nextSweepAt = this.#now() + this.#windowMs;
  }

  /** Keys holding a window right now (expired ones may linger until the next sweep). */
  get size(): number {
    return this.#windows.size;
  }

  consume(key: string, cost: number): Promise<RateLimitDecision> {
    const now = this.#now();
    this.#sweep(now);
    let window = this.#windows.get(key);
    if (!window || now >= window.startedAt + this.#windowMs) {
      window = { startedAt: now, used: 0 };
      this.#windows.set(key, window);
    }
    const allowed = window.used + cost <= this.#limit;
    if (allowed) window.used += cost;
    return Promise.resolve({
      allowed,
      limit: this.#limit,
      remaining: Math.max(0, this.#limit - window.used),
      resetAt: window.startedAt + this.#windowMs,
    });
  }

  #sweep(now: number): void {
    if (now < this.#nextSweepAt) return;
    this.#nextSweepAt = now + this.#windowMs;
    for (const [key, window] of this.#windows) {
      if (now >= window.startedAt + this.#windowMs) this.#windows.delete(key);
    }
  }
}

/**
 * Failed authentication counted per client address: after `limit` wrong keys
 * in a window, every request from the address gets 429 until the window ends,
 * a right key too, so a guesser cannot tell a right key by its answer. In this
 * process's memory (each process or Workers isolate counts on its own); the
 * memory is bounded by the addresses that failed within one window.
 *
 * @example
 * const throttle = new FailedAuthThrottle();
 * throttle.retryAfterSeconds("ip:203.0.113.7", 10); // undefined: not throttled
 * throttle.fail("ip:203.0.113.7");
 */
export class FailedAuthThrottle {
  readonly #windowMs: number;
  readonly #now: () => number;
  readonly #windows = new Map<string, { startedAt: number; failures: number }>();
  #nextSweepAt = 0;

  constructor(options: { windowMs?: number; now?: () => number } = {}) {
    this.#windowMs = options.windowMs ?? 60_000;
    this.#now = options.now ?? Date.now;
  }

  /** Seconds until `address` may try again, or undefined when it may now. */
  retryAfterSeconds(address: string, limit: number): number | undefined {
    const window = this.#current(address);
    if (!window || window.failures < limit) return undefined;
    return Math.max(1, Math.ceil((window.startedAt + this.#windowMs - this.#now()) / 1000));
  }

  fail(address: string): void {
    const window = this.#current(address);
    if (window) window.failures++;
    else this.#windows.set(address, { startedAt: this.#now(), failures: 1 });
  }

  #current(address: string) {
    const now = this.#now();
    if (now >= this.#nextSweepAt) {
      this.#nextSweepAt = now + this.#windowMs;
      for (const [key, window] of this.#windows) {
        if (now >= window.startedAt + this.#windowMs) this.#windows.delete(key);
      }
    }
    const window = this.#windows.get(address);
    return window && now < window.startedAt + this.#windowMs ? window : undefined;
  }
}

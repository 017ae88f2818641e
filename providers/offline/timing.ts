/**
 * Waits that end early when the request is aborted, so a client that gives up
 * (or the SDK's timeout) never leaves a timer or a hanging reply behind.
 */

/**
 * Resolves after `ms`, or rejects with the signal's reason once it aborts.
 *
 * @example
 * await sleep(300, request.signal);
 */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason);
  if (!(ms > 0)) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** Never resolves; rejects with the signal's reason once it aborts (the `timeout` fault). */
export function untilAborted(signal: AbortSignal): Promise<never> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((_, reject) => {
    signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
}

/** Milliseconds that `tokens` take at `tokensPerSecond` (0 when unpaced). */
export function tokenDelay(tokens: number, tokensPerSecond: number): number {
  return Number.isFinite(tokensPerSecond) ? (tokens / tokensPerSecond) * 1000 : 0;
}

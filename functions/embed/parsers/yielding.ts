/** Work done between turns given to the event loop. */
const BUDGET_MS = 8;

/**
 * A pause for long loops: each call resolves at once until `budgetMs` of work
 * has passed since the last turn, then waits for a macrotask (a timer), so
 * other requests on the same loop are answered meanwhile. A microtask would
 * not do: I/O callbacks run only between macrotasks.
 *
 * @example
 * const pause = yieldingEvery();
 * for (const slice of slices) {
 *   work(slice);
 *   await pause();
 * }
 */
export function yieldingEvery(budgetMs = BUDGET_MS): () => Promise<void> {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < budgetMs) return;
    await new Promise((resolve) => setTimeout(resolve, 0));
    since = performance.now();
  };
}

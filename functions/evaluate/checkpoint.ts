import type { ResilientCache } from "../../shared/cache/resilient.ts";

/** Checkpoints outlive a crash or a redeploy by a week, then expire. */
export const CHECKPOINT_TTL_SECONDS = 7 * 24 * 3600;

/** The cache key of one finished unit of a run. */
export function checkpointKey(runId: string, unit: string): string {
  return `eval:checkpoint:${runId}:${unit}`;
}

/**
 * Every finished unit of an evaluation (a pipeline run, a judgment, a game)
 * stored in the cache store under the run's id, so the same run started
 * again picks up where it stopped instead of paying for the work twice. A
 * unit that fails is not stored: the next attempt tries it again.
 *
 * @example
 * const checkpoints = new Checkpoints(deps.cache, "nightly-2025-01-01");
 * const run = await checkpoints.unit("run:q001:one-turn", () => runVariant(...));
 */
export class Checkpoints {
  readonly runId: string;
  readonly #cache: Pick<ResilientCache, "getOrSet">;
  readonly #ttlSeconds: number;
  computed = 0;
  reused = 0;

  constructor(
    cache: Pick<ResilientCache, "getOrSet">,
    runId: string,
    options: { ttlSeconds?: number } = {},
  ) {
    this.runId = runId;
    this.#cache = cache;
    this.#ttlSeconds = options.ttlSeconds ?? CHECKPOINT_TTL_SECONDS;
  }

  /** The unit's stored result, or `compute()`'s, stored once it succeeds. */
  async unit<T>(name: string, compute: () => Promise<T>): Promise<{ value: T; cached: boolean }> {
    const result = await this.#cache.getOrSet(checkpointKey(this.runId, name), compute, {
      ttlSeconds: this.#ttlSeconds,
    });
    if (result.cached) this.reused++;
    else this.computed++;
    return result;
  }
}

import type { CacheStore } from "./port.ts";
import { prefixedStore } from "./prefixed.ts";

export type CacheErrorReporter = (operation: string, key: string, error: unknown) => void;

const logCacheError: CacheErrorReporter = (operation, key, error) => {
  console.warn(
    `cache ${operation} failed for ${key}:`,
    error instanceof Error ? error.message : error,
  );
};

/**
 * Wraps a `CacheStore` so that it can never fail a request: a failing read is
 * a miss, a failing write is dropped. `getOrSet` computes concurrent identical
 * misses once; the in-flight map is passed in so it can outlive a request
 * (the store itself may be built per request).
 *
 * @example
 * const cache = new ResilientCache(new MemoryCache());
 * const value = await cache.getOrSet("key", () => compute(), { ttlSeconds: 3600 });
 */
export class ResilientCache {
  readonly store: CacheStore;
  readonly #inflight: Map<string, Promise<unknown>>;
  readonly #report: CacheErrorReporter;
  /** The key prefixes this view adds: in-flight work is shared only within one key space. */
  readonly #prefix: string;

  constructor(
    store: CacheStore,
    options: {
      inflight?: Map<string, Promise<unknown>>;
      onError?: CacheErrorReporter;
      prefix?: string;
    } = {},
  ) {
    this.store = store;
    this.#inflight = options.inflight ?? new Map();
    this.#report = options.onError ?? logCacheError;
    this.#prefix = options.prefix ?? "";
  }

  /**
   * This cache under a key space of its own (every key prefixed), sharing
   * the in-flight map and error reporting: what a request that must not be
   * served earlier results (a repeated evaluation run) uses.
   */
  withKeyPrefix(prefix: string): ResilientCache {
    return new ResilientCache(prefixedStore(this.store, prefix), {
      inflight: this.#inflight,
      onError: this.#report,
      // Two key spaces (two tenants, two repeats) computing the same key concurrently
      // must each compute their own: the in-flight map is keyed as the store is.
      prefix: this.#prefix + prefix,
    });
  }

  async get<T>(key: string): Promise<T | undefined> {
    try {
      return await this.store.get<T>(key);
    } catch (error) {
      this.#report("get", key, error);
      return undefined;
    }
  }

  async set<T>(key: string, value: T, options: { ttlSeconds?: number } = {}): Promise<void> {
    try {
      await this.store.set(key, value, options);
    } catch (error) {
      this.#report("set", key, error);
    }
  }

  /**
   * The cached value, or `compute()`'s result, stored for next time. The
   * result says whether it came from the cache.
   */
  async getOrSet<T>(
    key: string,
    compute: () => Promise<T>,
    options: { ttlSeconds?: number } = {},
  ): Promise<{ value: T; cached: boolean }> {
    const inflightKey = this.#prefix + key;
    const pending = this.#inflight.get(inflightKey) as
      | Promise<{ value: T; cached: boolean }>
      | undefined;
    if (pending) return pending;
    const lookup = (async () => {
      const hit = await this.get<T>(key);
      if (hit !== undefined) return { value: hit, cached: true };
      const value = await compute();
      await this.set(key, value, options);
      return { value, cached: false };
    })();
    this.#inflight.set(inflightKey, lookup);
    try {
      return await lookup;
    } finally {
      this.#inflight.delete(inflightKey);
    }
  }
}

/**
 * A key-value store with TTL. Adapters: `MemoryCache` (LRU) and
 * `UpstashRedisCache`. Values are JSON-serializable. Adapters may throw; the
 * `ResilientCache` wrapper turns failures into misses so a cache never fails a
 * request.
 */
export interface CacheStore {
  readonly name: string;
  get<T>(key: string): Promise<T | undefined>;
  set<T>(key: string, value: T, options?: { ttlSeconds?: number }): Promise<void>;
  delete(key: string): Promise<void>;
}

import type { CacheStore } from "./port.ts";

type Entry = { value: unknown; expiresAt: number };

/**
 * In-memory LRU with per-entry TTL: the embedded default when no Upstash Redis
 * is configured. A `Map` keeps insertion order, so re-inserting on read makes
 * the first key the least recently used.
 *
 * @example
 * const cache = new MemoryCache({ maxEntries: 100 });
 * await cache.set("k", { a: 1 }, { ttlSeconds: 60 });
 */
export class MemoryCache implements CacheStore {
  readonly name = "memory";
  readonly #entries = new Map<string, Entry>();
  readonly #maxEntries: number;
  readonly #now: () => number;

  constructor(options: { maxEntries?: number; now?: () => number } = {}) {
    this.#maxEntries = options.maxEntries ?? 5000;
    this.#now = options.now ?? Date.now;
  }

  get size(): number {
    return this.#entries.size;
  }

  get<T>(key: string): Promise<T | undefined> {
    const entry = this.#entries.get(key);
    if (!entry) return Promise.resolve(undefined);
    this.#entries.delete(key);
    if (entry.expiresAt <= this.#now()) return Promise.resolve(undefined);
    this.#entries.set(key, entry);
    // A copy, so a caller mutating its result cannot change what is cached.
    return Promise.resolve(structuredClone(entry.value) as T);
  }

  set<T>(key: string, value: T, options: { ttlSeconds?: number } = {}): Promise<void> {
    const ttl = options.ttlSeconds;
    const expiresAt = ttl === undefined ? Infinity : this.#now() + ttl * 1000;
    this.#entries.delete(key);
    this.#entries.set(key, { value: structuredClone(value), expiresAt });
    while (this.#entries.size > this.#maxEntries) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.#entries.delete(oldest);
    }
    return Promise.resolve();
  }

  delete(key: string): Promise<void> {
    this.#entries.delete(key);
    return Promise.resolve();
  }
}

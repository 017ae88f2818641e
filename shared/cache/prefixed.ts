import type { CacheStore } from "./port.ts";

/**
 * A view of `store` in which every key starts with `prefix`: a key space of
 * its own over the same storage, so nothing is read from or written to the
 * keys outside it.
 *
 * @example
 * const scoped = prefixedStore(store, "scope:repeat-2:");
 * await scoped.set("rerank:abc", value); // stored as "scope:repeat-2:rerank:abc"
 */
export function prefixedStore(store: CacheStore, prefix: string): CacheStore {
  return {
    name: store.name,
    get: (key) => store.get(prefix + key),
    set: (key, value, options) => store.set(prefix + key, value, options),
    delete: (key) => store.delete(prefix + key),
  };
}

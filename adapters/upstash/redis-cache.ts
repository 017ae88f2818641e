import { errors, Redis } from "@upstash/redis";
import { ConfigError, UpstreamError } from "../../shared/errors.ts";
import type { CacheStore } from "../../shared/cache/port.ts";

/** How long one cache call may take: a slower cache is worse than a miss. */
const DEFAULT_TIMEOUT_MS = 1_000;
/** The SDK retries only when `fetch` itself throws (connection refused or reset). */
const DEFAULT_RETRIES = 1;

export type UpstashRedisCacheOptions =
  & {
    /** Prepended to every key so sift can share a database; default `"sift:"`. */
    keyPrefix?: string;
  }
  & (
    | {
      url: string;
      token: string;
      /** Deadline for one HTTP call, network retries included. */
      timeoutMs?: number;
      /** Retries after a network error; HTTP error replies are never retried. */
      retries?: number;
    }
    | {
      /** A ready client; it must keep `automaticDeserialization` on (the default). */
      redis: Redis;
    }
  );

/**
 * `CacheStore` on Upstash Redis over its REST API. Construction does no I/O,
 * so it is safe to build per request from `env`. Every SDK failure becomes an
 * `UpstreamError("cache")`; `ResilientCache` turns those into misses.
 *
 * Values are stored as their JSON text. The SDK would send a string as-is and
 * JSON-parse it on the way back, so the string `"42"` would return as the
 * number `42`; encoding first makes every JSON value come back as it went in.
 * A stored `null` reads back as a miss, as Redis nil does.
 *
 * @example
 * const cache = new UpstashRedisCache({ url: env.UPSTASH_REDIS_REST_URL, token });
 * await cache.set("answer:v1:abc", { text: "..." }, { ttlSeconds: 3600 });
 */
export class UpstashRedisCache implements CacheStore {
  readonly name = "upstash-redis";
  readonly keyPrefix: string;
  readonly #redis: Redis;

  constructor(options: UpstashRedisCacheOptions) {
    this.keyPrefix = options.keyPrefix ?? "sift:";
    this.#redis = "redis" in options ? options.redis : createRedisClient(options);
  }

  async get<T>(key: string): Promise<T | undefined> {
    const value = await this.#call(() => this.#redis.get<T>(this.keyPrefix + key));
    return value ?? undefined;
  }

  async set<T>(key: string, value: T, options: { ttlSeconds?: number } = {}): Promise<void> {
    const json = JSON.stringify(value);
    if (json === undefined) {
      throw new TypeError(`cache value for ${key} is not JSON-serializable`);
    }
    const ttlSeconds = options.ttlSeconds;
    // Like MemoryCache, a TTL that has already run out stores nothing readable.
    if (ttlSeconds !== undefined && !(ttlSeconds > 0)) return await this.delete(key);
    const fullKey = this.keyPrefix + key;
    await this.#call(() =>
      ttlSeconds === undefined
        ? this.#redis.set(fullKey, json)
        : this.#redis.set(fullKey, json, { ex: Math.ceil(ttlSeconds) })
    );
  }

  async delete(key: string): Promise<void> {
    await this.#call(() => this.#redis.del(this.keyPrefix + key));
  }

  async #call<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      // UpstashError carries a reply the server sent (auth, Redis error, 5xx);
      // anything else is transport (timeout, refused) that may pass.
      throw new UpstreamError("cache", {
        cause: error,
        isRetryable: !(error instanceof errors.UpstashError),
      });
    }
  }
}

export function createRedisClient(
  options: { url: string; token: string; timeoutMs?: number; retries?: number },
): Redis {
  if (!options.url || !options.token) {
    throw new ConfigError("Upstash Redis needs both a REST URL and a token");
  }
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  try {
    return new Redis({
      url: options.url,
      token: options.token,
      retry: {
        retries: options.retries ?? DEFAULT_RETRIES,
        backoff: (retryCount) => Math.min(50 * 2 ** retryCount, 400) * (0.5 + Math.random()),
      },
      // A function, so each HTTP call gets a fresh deadline; with a plain
      // signal the SDK would report an abort as a successful result.
      signal: () => AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    // The SDK validates the URL shape synchronously (UrlError).
    throw new ConfigError(
      `Upstash Redis URL is invalid: ${error instanceof Error ? error.message : error}`,
    );
  }
}

import { InvalidRequestError } from "../errors.ts";

/**
 * A request header that gives the request's cached results (LLM replies,
 * rubrics, reranks, judgments) a key space of their own. A repeated
 * evaluation run sends `repeat-<n>`, so its model calls are made again
 * instead of being served the first run's replies; steps forward it.
 */
export const CACHE_SCOPE_HEADER = "x-sift-cache-scope";

const SCOPE = /^[\w.:-]{1,64}$/;

/**
 * The scope a request asks for, `undefined` without the header.
 *
 * @example
 * cacheScopeOf("repeat-2"); // "repeat-2"
 * cacheScopeOf("two words"); // throws InvalidRequestError (400)
 */
export function cacheScopeOf(header: string | undefined): string | undefined {
  if (header === undefined || header === "") return undefined;
  if (!SCOPE.test(header)) {
    throw new InvalidRequestError(
      `${CACHE_SCOPE_HEADER}: must be 1-64 letters, digits, '_', '.', ':' or '-'`,
    );
  }
  return header;
}

/** Where a scope's keys live in the cache store. */
export function cacheScopePrefix(scope: string): string {
  return `scope:${scope}:`;
}

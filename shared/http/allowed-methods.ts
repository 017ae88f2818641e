import { TrieRouter } from "hono/router/trie-router";

/**
 * The methods each route of `app` answers, read from the routes it has when
 * this is called (after every mount), so no list is kept by hand. `of(path)`
 * is the `Allow` set for a path that some route serves with other methods
 * than the one asked (a 405), or undefined for a path no route serves (a
 * 404). Routes for every method (`app.all`, middleware) never make a 405.
 *
 * @example
 * const allowed = allowedMethods(app);
 * allowed.of("/v1/query"); // ["POST"]
 * allowed.of("/v1/models/sift-none"); // ["GET", "HEAD"]
 */
export function allowedMethods(
  app: { routes: readonly { method: string; path: string }[] },
): { of: (path: string) => string[] | undefined } {
  const router = new TrieRouter<string>();
  // One pseudo-method for every route, whose handler is the route's real method:
  // one match then yields every method the path is served with.
  const seen = new Set<string>();
  for (const route of app.routes) {
    const method = route.method.toUpperCase();
    if (method === "ALL") continue;
    const key = `${method} ${route.path}`;
    if (seen.has(key)) continue;
    seen.add(key);
    router.add("ANY", route.path, method);
  }
  return {
    of(path) {
      const [matches] = router.match("ANY", path);
      if (matches.length === 0) return undefined;
      const methods = new Set(matches.map(([method]) => method));
      // hono answers HEAD with its GET route.
      if (methods.has("GET")) methods.add("HEAD");
      return [...methods].sort();
    },
  };
}

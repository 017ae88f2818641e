/**
 * A path the docs send people to is a route sift serves: every `/...` in
 * backticks (with or without its method) and every link to the local server
 * (`http://127.0.0.1:8787/...`) in README.md and docs/ matches a path of the
 * OpenAPI document, which lists every route the app mounts (the console at
 * `/` included). A newcomer once followed `/console` to a 404.
 */
import assert from "node:assert/strict";
import { createSiftApp } from "../../app.ts";
import { ROOT } from "./commands.ts";

/** A host's folders (`/usr/sbin`, `/etc/nginx/...`), not routes. */
const HOST_PATH = /^\/(etc|usr|var|tmp|home|opt|run|srv)(\/|$)/;

/** Mentions that are not a route sift serves, and what they are. */
const NOT_ROUTES: Record<string, string> = {
  "/models": "an upstream model server's listing (docs/operations.md)",
  "DELETE /mcp": "documented as the 405 it answers (docs/mcp.md)",
};

/** `GET /v1/x`, `/v1/x?y=`, `http://127.0.0.1:8787/v1/x` as the method (if any) and path. */
export function routeMentions(markdown: string): { method?: string; path: string }[] {
  const mentions: { method?: string; path: string }[] = [];
  const backticked = /`(?:(GET|POST|PUT|PATCH|DELETE) )?(\/(?:[a-z][^`\s]*)?)`/g;
  const linked = /https?:\/\/(?:127\.0\.0\.1|localhost):\$?\{?[\w:-]*\}?(\/[^\s)`"'\]]*)/g;
  for (const match of markdown.matchAll(backticked)) {
    mentions.push({ ...(match[1] ? { method: match[1] } : {}), path: match[2]! });
  }
  for (const match of markdown.matchAll(linked)) mentions.push({ path: match[1]! });
  return mentions.map(({ method, path }) => ({
    ...(method ? { method } : {}),
    path: path.split("?")[0]!,
  }));
}

/**
 * Whether `path` is served: `:id`, `<id>` or a literal stand for a parameter;
 * `/v1/`, `/v1/judge/*` and a one-segment base URL such as `/v1` are
 * prefixes of routes.
 */
export function served(path: string, routes: string[]): boolean {
  const isPrefix = path !== "/" && (/\/\*?$/.test(path) || /^\/[^/]+$/.test(path));
  const base = `${path.replace(/\/?\*?$/, "")}/`;
  return routes.some((route) => {
    const pattern = new RegExp(`^${route.replace(/\{\w+\}/g, "[^/]+")}$`);
    if (pattern.test(path.replace(/:\w+|<\w+>/g, "x"))) return true;
    return isPrefix && route.startsWith(base);
  });
}

Deno.test("routeMentions() reads backticked routes and local links, without their query", () => {
  const markdown =
    "In the console (`/console`), a comment `//`, `GET /v1/documents/:id?namespace=` and " +
    "[it](http://127.0.0.1:8787/v1/query), `curl http://127.0.0.1:${PORT:-8787}/healthz`.";
  assert.deepEqual(routeMentions(markdown), [
    { path: "/console" },
    { method: "GET", path: "/v1/documents/:id" },
    { path: "/v1/query" },
    { path: "/healthz" },
  ]);
});

Deno.test("served() matches parameters and prefixes, and not a path no route has", () => {
  const routes = ["/", "/v1/documents/{id}", "/v2/rerank"];
  assert.ok(served("/v1/documents/:id", routes));
  assert.ok(served("/v1/documents/alpha%2FREADME", routes));
  assert.ok(served("/v2/", routes));
  assert.ok(served("/v2", routes));
  assert.ok(served("/", routes));
  assert.ok(!served("/console", routes));
  assert.ok(!served("/v1/documents", routes));
  assert.ok(!served("/v3", routes));
  assert.ok(!served("/console/", routes));
});

Deno.test("every route path README.md and docs/ mention is one sift serves", async () => {
  const response = await createSiftApp().request("/openapi.json");
  const document = (await response.json()) as { paths: Record<string, Record<string, unknown>> };
  const routes = Object.keys(document.paths);
  const pages = ["README.md"];
  for await (const entry of Deno.readDir(`${ROOT}/docs`)) {
    if (entry.name.endsWith(".md")) pages.push(`docs/${entry.name}`);
  }
  const problems: string[] = [];
  let checked = 0;
  for (const page of pages.sort()) {
    for (const { method, path } of routeMentions(await Deno.readTextFile(`${ROOT}/${page}`))) {
      if (HOST_PATH.test(path) || path in NOT_ROUTES || `${method} ${path}` in NOT_ROUTES) continue;
      checked++;
      const matching = routes.filter((route) => served(path, [route]));
      if (matching.length === 0) problems.push(`${page}: ${method ?? ""} ${path} is no route`);
      const methods = matching.flatMap((route) => Object.keys(document.paths[route]!));
      if (method && matching.length > 0 && !methods.includes(method.toLowerCase())) {
        problems.push(`${page}: ${path} takes no ${method}`);
      }
    }
  }
  assert.ok(checked >= 200, `only ${checked} mentions found`);
  assert.deepEqual(problems, []);
});

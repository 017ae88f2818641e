import { Hono } from "hono";
import type { Config } from "../config.ts";
import { NotFoundError, SiftError, toErrorBody } from "../errors.ts";
import type { Deps, Runtime } from "../runtime.ts";
import { requireApiKey } from "./auth.ts";

/** Hono's typing for sift: `c.env` is the raw environment, `c.var.deps` this request's deps. */
export type AppEnv = {
  Bindings: Record<string, string | undefined>;
  Variables: { config: Config; deps: Deps };
};

export type Mount = (app: Hono<AppEnv>) => void;

/**
 * The shared shell of every sift app (all-in-one or one function alone): the
 * error mapping, auth, per-request config and deps, `/healthz`, then the
 * function's routes. Entries pass the environment as `c.env` (Deno:
 * `app.fetch(request, Deno.env.toObject())`; Workers: bindings), so config is
 * read per request the same way everywhere.
 */
export function createServer(
  options: { runtime: Runtime; mounts: Mount[]; onReady?: (deps: Deps) => Promise<void> },
): Hono<AppEnv> {
  const { runtime } = options;
  const app = new Hono<AppEnv>();

  app.onError((error, c) => {
    if (!(error instanceof SiftError) || error.status >= 500) {
      console.error(`${c.req.method} ${c.req.path} failed:`, error);
    }
    const { status, body } = toErrorBody(error);
    return c.json(body, status as 400);
  });
  app.notFound((c) => {
    const { status, body } = toErrorBody(
      new NotFoundError(`No route for ${c.req.method} ${c.req.path}`),
    );
    return c.json(body, status as 404);
  });

  app.use("*", async (c, next) => {
    const config = runtime.config(c.env ?? {});
    const deps = runtime.deps(config);
    c.set("config", config);
    c.set("deps", deps);
    if (options.onReady) await options.onReady(deps);
    await next();
  });

  app.get("/healthz", (c) => c.json({ status: "ok", providers: c.var.deps.providers }));

  app.use("*", requireApiKey);
  for (const mount of options.mounts) mount(app);
  return app;
}

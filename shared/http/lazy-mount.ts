import { type Context, Hono, type MiddlewareHandler } from "hono";
import { TrieRouter } from "hono/router/trie-router";
import type { AppEnv, Mount } from "./app-env.ts";

/**
 * A function's routes, loaded the first time a request reaches one of their
 * paths: a process that only searches never parses the evaluation report's
 * code. `paths` are hono `use` patterns that cover every route the mount adds
 * (`"/v1/evaluations/*"` also covers `/v1/evaluations`); `load` is a dynamic
 * `import()` of a static specifier, which wrangler's esbuild bundles like a
 * static one.
 *
 * @example
 * lazyMount(["/v1/evaluations/*"], async () => (await import("./app.ts")).mountEvaluations);
 */
export type LazyMount = {
  readonly paths: readonly string[];
  readonly load: () => Promise<Mount>;
};

export function lazyMount(paths: readonly string[], load: () => Promise<Mount>): LazyMount {
  return { paths, load };
}

export function isLazyMount(mount: Mount | LazyMount): mount is LazyMount {
  return typeof mount !== "function";
}

/**
 * The outer request's execution context, read when used: on Deno there is
 * none and hono's getter throws, and an Error per request was 8% of a sparse
 * search. Used on Deno, it throws then, as the outer context's would. One
 * small object per request, its methods on the prototype.
 */
class OuterExecutionContext {
  readonly #c: Context;

  constructor(c: Context) {
    this.#c = c;
  }

  waitUntil(promise: Promise<unknown>): void {
    this.#c.executionCtx.waitUntil(promise);
  }

  passThroughOnException(): void {
    this.#c.executionCtx.passThroughOnException();
  }

  get props(): unknown {
    return this.#c.executionCtx.props;
  }
}

function executionCtxOf(c: Context): Context["executionCtx"] {
  return new OuterExecutionContext(c) as Context["executionCtx"];
}

/** Every variable of `AppEnv` (a name left out here is a type error below). */
const VARIABLES = ["config", "deps", "steps", "tenant", "rateLimit"] as const;
type Unlisted = Exclude<keyof AppEnv["Variables"], typeof VARIABLES[number]>;
const everyVariableListed: [Unlisted] extends [never] ? true : Unlisted = true;
void everyVariableListed;

/**
 * Every variable the outer request has (config, deps, steps, tenant, rate
 * limit), each read with `get`: `c.var` builds an object of them all per read.
 */
function copyVariables(from: Context<AppEnv>, to: Context<AppEnv>): void {
  for (const key of VARIABLES) {
    const value = from.get(key);
    if (value !== undefined) to.set(key, value as never);
  }
}

/**
 * One lazy mount on `app`: its routes live on an app of their own, built on
 * first use, to which `middleware` hands each request under `paths` with the
 * outer request's variables (config, deps, steps, tenant, rate limit). Errors
 * go back to the outer app's `onError`, and a path the mount does not serve
 * (another method, another route under the prefix) goes on to the routes
 * after it, so order, 404s and 405s are those of routes mounted in place.
 * A mount's `app.fetch` (in-process job consumers) is the outer app's.
 */
export class LazyRoutes {
  readonly #mount: LazyMount;
  readonly #outer: Hono<AppEnv>;
  readonly #covers = new TrieRouter<true>();
  readonly #outerOf = new WeakMap<Request, Context<AppEnv>>();
  readonly #unserved = new WeakSet<Request>();
  #loading: Promise<Hono<AppEnv>> | undefined;
  #loaded: Hono<AppEnv> | undefined;
  #copyVariables: MiddlewareHandler<AppEnv> | undefined;

  constructor(mount: LazyMount, outer: Hono<AppEnv>) {
    this.#mount = mount;
    this.#outer = outer;
    for (const path of mount.paths) this.#covers.add("ALL", path, true);
  }

  /** Whether a request for `path` reaches this mount. */
  covers(path: string): boolean {
    return this.#covers.match("ALL", path)[0].length > 0;
  }

  /** The routes once loaded (undefined before), without the variable-copying middleware. */
  get routes(): Hono<AppEnv>["routes"] | undefined {
    return this.#loaded?.routes.filter((route) => route.handler !== this.#copyVariables);
  }

  /** Loads the mount once; a failed load is tried again by the next request. */
  load(): Promise<Hono<AppEnv>> {
    this.#loading ??= this.#mount.load().then((mount) => {
      const app = new Hono<AppEnv>();
      // Not an async function: one promise and frame fewer per request.
      this.#copyVariables = (c, next) => {
        const outer = this.#outerOf.get(c.req.raw);
        if (outer) copyVariables(outer, c);
        return next();
      };
      app.use("*", this.#copyVariables);
      app.onError((error) => {
        throw error; // the outer app's onError maps it, with the outer request's context
      });
      app.notFound((c) => {
        this.#unserved.add(c.req.raw);
        return c.body(null, 404);
      });
      // Routes go on `app`; `fetch` stays the outer app's (a job consumer calls every route).
      const outerFetch = this.#outer.fetch;
      mount(Object.create(app, { fetch: { value: outerFetch } }));
      this.#loaded = app;
      return app;
    }).catch((error) => {
      this.#loading = undefined;
      throw error;
    });
    return this.#loading;
  }

  readonly middleware: MiddlewareHandler<AppEnv> = async (c, next) => {
    const app = this.#loaded ?? await this.load();
    const request = c.req.raw;
    this.#outerOf.set(request, c);
    let response: Response;
    try {
      response = await app.fetch(request, c.env, executionCtxOf(c));
    } finally {
      this.#outerOf.delete(request);
    }
    if (this.#unserved.has(request)) {
      this.#unserved.delete(request);
      await next();
      return;
    }
    return response;
  };
}

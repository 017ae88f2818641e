import { type Context, type ErrorHandler, Hono, type MiddlewareHandler, type Next } from "hono";
import type { AppEnv, Mount } from "../shared/http/app-env.ts";
import { loadDemoCorpus, retireDemoCorpus } from "../shared/demo/loader.ts";
import { lazyIndex, withoutDemoCorpus } from "../shared/demo/lazy-index.ts";
import { HealthProbe } from "./health-probe.ts";
import { mountRecoveryAcknowledgement, withRecovery } from "./index-recovery.ts";
import {
  MethodNotAllowedError,
  NotFoundError,
  RequestTimeoutError,
  SiftError,
} from "../shared/errors.ts";
import { allowedMethods } from "../shared/http/allowed-methods.ts";
import { clientWentAway } from "../shared/http/client-gone.ts";
import { errorReply, errorShapeOf, unknownPathShape } from "../shared/http/error-shapes.ts";
import { CACHE_SCOPE_HEADER, cacheScopeOf, cacheScopePrefix } from "../shared/cache/scope.ts";
import type { Runtime } from "./runtime.ts";
import type { Deps } from "../shared/deps.ts";
import type { StepName } from "../shared/steps/names.ts";
import type { FetchHandler, StepContext } from "../shared/steps/transport.ts";
import { requireApiKey } from "../shared/http/auth.ts";
import { describe, json } from "../shared/http/openapi.ts";
import { type ExtendDocument, mountOpenApi } from "../shared/http/openapi-document.ts";
import { healthLoadingSchema, healthSchema } from "../shared/responses.ts";
import { LocalIndex } from "../adapters/vector-index/local.ts";
import { rateLimit } from "../shared/ratelimit/middleware.ts";
import { limiterFor } from "./rate-limiter.ts";
import { markInProcess } from "../shared/ratelimit/origin.ts";
import {
  crossOrigin,
  securityHeaders,
  writeNoOriginHeaders,
  writeSecurityHeaders,
} from "../shared/http/browser-safety.ts";
import { dropHopByHop, hopByHopHeaders } from "../shared/http/hop-by-hop.ts";
import { isLazyMount, type LazyMount, LazyRoutes } from "../shared/http/lazy-mount.ts";

export type { AppEnv, LazyMount, Mount };

export type ServerOptions = {
  runtime: Runtime;
  /** In order; a `LazyMount` is loaded the first time a request reaches its paths. */
  mounts: (Mount | LazyMount)[];
  /** Routes open even with `API_KEYS`, mounted before the key check (the console page). */
  open?: (Mount | LazyMount)[];
  /** The steps whose routes this app serves itself: other apps' steps are reached remotely. */
  serves: readonly StepName[];
  /** Load the demo corpus into an empty embedded index (apps that search or ingest). */
  demoCorpus?: boolean;
  /** Adds to `/openapi.json` the routes this app forwards (the orchestrator alone). */
  extendOpenApi?: ExtendDocument;
};

/** A caller's request id when it is a sane token, else a new one. */
function requestIdOf(c: Context): string {
  const given = c.req.header("x-request-id");
  return given && /^[\w.:-]{1,128}$/.test(given) ? given : crypto.randomUUID();
}

/** Workers' execution context when there is one (Deno has none: Hono's getter throws). */
function executionCtxOf(c: Context): ExecutionContextLike | undefined {
  try {
    return c.executionCtx;
  } catch {
    return undefined;
  }
}

type ExecutionContextLike = Context["executionCtx"];

/**
 * The shared shell of every sift app (all-in-one or one function alone): the
 * error mapping, auth, per-request config and deps, `/healthz`, then the
 * function's routes. Entries pass the environment as `c.env` (Deno:
 * `app.fetch(request, Deno.env.toObject())`; Workers: bindings), so config is
 * read per request the same way everywhere. Steps this app serves are called
 * in-process through `app.fetch`, on their public routes like any remote call.
 */
export function createServer(options: ServerOptions): Hono<AppEnv> {
  const { runtime } = options;
  const app = new Hono<AppEnv>();
  const health = new HealthProbe();

  const onError: ErrorHandler<AppEnv> = (error, c) => {
    if (clientWentAway(error, c.req.raw)) {
      // No one reads this reply; 499 (nginx's "client closed request") keeps it out of the 5xx.
      console.warn(`${c.req.method} ${c.req.path}: the client went away while sending its body`);
      return c.body(null, 499 as 400);
    }
    if (!(error instanceof SiftError) || error.status >= 500) {
      console.error(`${c.req.method} ${c.req.path} failed:`, error);
    }
    const { status, body } = errorReply(error, errorShapeOf(c.req.path));
    if (status === 401) c.header("WWW-Authenticate", 'Bearer realm="sift"');
    // A body that stalled is still owed bytes: this connection cannot carry another request.
    if (status === 408 && !(error instanceof RequestTimeoutError && error.serverCloses)) {
      c.header("Connection", "close");
    }
    return c.json(body, status as 400);
  };
  app.onError(onError);
  // Known once every route is mounted (below): a known path asked with another method is a 405.
  const routes = new MountedRoutes(app);
  app.notFound(async (c) => {
    const methods = (await routes.allowed(c.req.path)).of(c.req.path);
    // A path no route serves speaks the API its prefix names.
    const shape = methods ? errorShapeOf(c.req.path) : unknownPathShape(c.req.path);
    if (methods) {
      c.header("Allow", methods.join(", "));
      const refused = new MethodNotAllowedError(c.req.method, c.req.path, methods);
      return c.json(errorReply(refused, shape).body, 405);
    }
    const { status, body } = errorReply(
      new NotFoundError(`No route for ${c.req.method} ${c.req.path}`),
      shape,
    );
    return c.json(body, status as 404);
  });

  // The deps a request sees, with the demo corpus's wrapper: the same object while runtime.deps
  // answers with the same one (an unchanged environment), so the wrapper is made once, not per
  // request (a fresh one per request when deps are built per request: Workers with Postgres).
  let lastBuilt: Deps | undefined;
  let lastShared: Deps | undefined;
  const sharedDeps = (built: Deps): Deps => {
    if (built === lastBuilt && lastShared) return lastShared;
    const shared = options.demoCorpus
      ? {
        ...built,
        index: lazyIndex(
          built.index,
          () => loadDemoCorpus(runtime, built),
          (namespace, docIds) => retireDemoCorpus(runtime, built, namespace, docIds),
        ),
      }
      : built;
    lastBuilt = built;
    lastShared = shared;
    return shared;
  };
  /** The request's config, deps and step context; its id, written on the reply by `writeRequestId`. */
  const prepare = (c: Context<AppEnv>): string => {
    const env = c.env ?? {};
    const config = runtime.config(env);
    const cacheScope = cacheScopeOf(c.req.header(CACHE_SCOPE_HEADER));
    // Only calls that touch the index wait on the demo corpus (and a failed load fails none).
    const shared = sharedDeps(runtime.deps(config, env));
    const deps = cacheScope
      ? { ...shared, cache: shared.cache.withKeyPrefix(cacheScopePrefix(cacheScope)) }
      : shared;
    const requestId = requestIdOf(c);
    // Looked up when a step runs in-process, not per request: on Deno hono's getter throws.
    // Marked so the rate limit counts only the outer request, never its steps.
    const local: FetchHandler = async (request) =>
      await app.fetch(markInProcess(request), env, executionCtxOf(c));
    const localSteps: Partial<Record<StepName, FetchHandler>> = {};
    for (const name of options.serves) localSteps[name] = local;
    c.set("config", config);
    c.set("deps", deps);
    c.set(
      "steps",
      new RequestSteps(env, config, localSteps, {
        authorization: c.req.header("authorization"),
        requestId,
        cacheScope,
      }, c.req.raw),
    );
    return requestId;
  };
  const requestScope: MiddlewareHandler<AppEnv> = async (c, next) => {
    const requestId = prepare(c);
    await next();
    writeRequestId(c, requestId);
  };
  const crossOriginScope = crossOrigin((c) => runtime.config(c.env ?? {}).corsOrigins);
  // In this order, outermost first: hop-by-hop headers dropped, nosniff and no-store written,
  // CORS (a foreign Origin or a preflight needs neither config nor deps), then the request's
  // scope. One middleware: each level of hono's compose was a promise and a closure per request.
  app.use("*", async (c, next) => {
    if (c.req.method === "OPTIONS" || c.req.header("origin") !== undefined) {
      // A browser's request: each step a level of its own, as hono would run them.
      return await composed(c, onError, [
        hopByHopHeaders,
        securityHeaders,
        crossOriginScope as MiddlewareHandler<AppEnv>,
        requestScope,
      ], next);
    }
    // No Origin (a client outside a browser): what crossOrigin does then, inline.
    let requestId: string | undefined;
    try {
      requestId = prepare(c);
    } catch (error) {
      // As hono's compose answers a middleware's error: the error reply, then the steps outside.
      if (!(error instanceof Error)) throw error;
      c.error = error;
      c.res = await onError(error, c);
    }
    if (requestId !== undefined) {
      await next();
      writeRequestId(c, requestId);
    }
    writeNoOriginHeaders(c);
    writeSecurityHeaders(c);
    dropHopByHop(c);
  });

  app.get(
    "/healthz",
    describe({
      tag: "service",
      summary: "Health and the providers in use",
      open: true,
      description: "Answers 200 while the service can serve in some form; `checks` grades " +
        "each provider by what sift calls (a one-token chat call, an embedding, an index count, " +
        "a cache read; each with a 2 s timeout, cached 30 s for a real provider and 5 s " +
        "offline), `problems` says why each one not `ok` is not, and `status` is `degraded` " +
        "when any is not `ok`. With the embedded index, 503 `loading` until its files are " +
        "loaded, and `index.recovered` says what its starts cut from the log's end, if " +
        "anything: `checks.index` is then `degraded` until an operator acknowledges it " +
        "(`DELETE /v1/index/recovered`).",
      responses: {
        200: json("Up", healthSchema),
        503: json(
          "The embedded index is still loading (requests meanwhile wait for it)",
          healthLoadingSchema,
        ),
      },
    }),
    async (c) => {
      const deps = c.get("deps");
      const index = withoutDemoCorpus(deps.index);
      const state = index instanceof LocalIndex ? index.status() : undefined;
      if (state?.status === "loading") {
        // Not probed: a count would wait for the load. 503 keeps a load balancer's traffic away.
        return c.json({ status: "loading", providers: deps.providers, index: state }, 503);
      }
      const { checks, problems } = withRecovery(await health.report(deps, index), state);
      const allOk = Object.values(checks).every((check) => check === "ok");
      return c.json({
        status: allOk ? "ok" : "degraded",
        providers: deps.providers,
        ...(state ? { index: state } : {}),
        checks,
        ...(Object.keys(problems).length ? { problems } : {}),
      });
    },
  );

  for (const mount of options.open ?? []) routes.mount(mount);
  app.use("*", requireApiKey());
  app.use("*", rateLimit(limiterFor));
  mountRecoveryAcknowledgement(app);
  for (const mount of options.mounts) routes.mount(mount);
  mountOpenApi(app, options.extendOpenApi, () => routes.all());
  mountedRoutes.set(app, routes);
  return app;
}

/**
 * A request's step context. `signal` is the request's, read when a step
 * asks for it: reading it makes Deno watch the connection for this request,
 * which most routes never need. A getter of the class, not of an object
 * literal (one of those gets a hidden class of its own, which kept every
 * request alive past the next minor GC). A copy made by spreading has no
 * `signal`: every copy sets its own (`{ ...steps, signal }`).
 */
class RequestSteps implements StepContext {
  readonly env: StepContext["env"];
  readonly config: StepContext["config"];
  readonly local: StepContext["local"];
  readonly headers: StepContext["headers"];
  readonly #request: Request;

  constructor(
    env: StepContext["env"],
    config: StepContext["config"],
    local: StepContext["local"],
    headers: StepContext["headers"],
    request: Request,
  ) {
    this.env = env;
    this.config = config;
    this.local = local;
    this.headers = headers;
    this.#request = request;
  }

  get signal(): AbortSignal {
    return this.#request.signal;
  }
}

/**
 * Written on the finished reply (every route's, error replies included): written before the
 * route, it made hono keep a placeholder set of headers per request.
 */
function writeRequestId(c: Context, requestId: string): void {
  try {
    c.res.headers.set("x-request-id", requestId);
  } catch {
    if (c.res.headers.get("x-request-id") === requestId) return;
    // A response passed through from fetch() has immutable headers: copy it first.
    c.res = new Response(c.res.body, c.res);
    c.res.headers.set("x-request-id", requestId);
  }
}

/**
 * `middleware` run in turn as hono's compose runs an app's middleware: an
 * error one throws answered there by `onError`, and a reply one returns kept.
 */
async function composed(
  c: Context<AppEnv>,
  onError: ErrorHandler<AppEnv>,
  middleware: MiddlewareHandler<AppEnv>[],
  next: Next,
): Promise<void> {
  const run = async (i: number): Promise<void> => {
    const handler = middleware[i];
    if (!handler) return await next();
    let res: Response | void;
    let isError = false;
    try {
      res = await handler(c, () => run(i + 1));
    } catch (error) {
      if (!(error instanceof Error)) throw error;
      c.error = error;
      res = await onError(error, c);
      isError = true;
    }
    if (res && (c.finalized === false || isError)) c.res = res;
  };
  await run(0);
}

const mountedRoutes = new WeakMap<Hono<AppEnv>, MountedRoutes>();

/**
 * Every route of an app from `createServer`, in order, its lazy mounts loaded
 * (`app.routes` lists a lazy mount as the middleware that loads it).
 *
 * @example
 * const routes = await routesOf(createSiftApp());
 */
export async function routesOf(app: Hono<AppEnv>): Promise<Hono<AppEnv>["routes"]> {
  return await mountedRoutes.get(app)?.all() ?? app.routes;
}

/**
 * The routes of an app whose mounts may load on first use: every route in
 * the order mounted (the OpenAPI document loads every mount), and the
 * methods a path is served with (a 405), reading only the mounts that
 * cover that path.
 */
class MountedRoutes {
  readonly #app: Hono<AppEnv>;
  readonly #lazy = new Map<unknown, LazyRoutes>();
  #ownAllowed: ReturnType<typeof allowedMethods> | undefined;

  constructor(app: Hono<AppEnv>) {
    this.#app = app;
  }

  mount(mount: Mount | LazyMount): void {
    if (!isLazyMount(mount)) return mount(this.#app);
    const lazy = new LazyRoutes(mount, this.#app);
    this.#lazy.set(lazy.middleware, lazy);
    for (const path of mount.paths) this.#app.use(path, lazy.middleware);
  }

  async allowed(path: string): Promise<ReturnType<typeof allowedMethods>> {
    const covering = [...new Set(this.#lazy.values())].filter((lazy) => lazy.covers(path));
    if (covering.length === 0) return this.#ownAllowed ??= allowedMethods(this.#app);
    await Promise.all(covering.map((lazy) => lazy.load()));
    const loaded = covering.flatMap((lazy) => lazy.routes ?? []);
    return allowedMethods({ routes: [...this.#app.routes, ...loaded] });
  }

  /** Every route, each lazy mount's where it was mounted. */
  async all(): Promise<Hono<AppEnv>["routes"]> {
    const lazies = [...new Set(this.#lazy.values())];
    await Promise.all(lazies.map((lazy) => lazy.load()));
    const listed = new Set<LazyRoutes>();
    return this.#app.routes.flatMap((route) => {
      const lazy = this.#lazy.get(route.handler);
      if (!lazy) return [route];
      if (listed.has(lazy)) return [];
      listed.add(lazy);
      return lazy.routes ?? [];
    });
  }
}

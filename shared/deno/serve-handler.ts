import type { Runtime } from "../runtime.ts";
import { guardLoopbackHost, guardsLoopbackHost } from "../http/loopback-host.ts";
import { withClientAddress } from "../ratelimit/origin.ts";

type App = {
  fetch: (request: Request, env: Record<string, string>) => Response | Promise<Response>;
};

/**
 * The `Deno.serve` handler of the Deno entries (`main.ts`, `scripts/serve.ts`):
 * the environment read per request, the client's address from the connection
 * (or from a trusted proxy's `X-Forwarded-For`, `TRUSTED_PROXIES`), and, bound
 * to loopback, only loopback names answered (no DNS rebinding; see
 * docs/limits-and-safety.md).
 *
 * @example
 * Deno.serve({ hostname: "127.0.0.1", port: 8787 }, denoHandler(app, runtime, "127.0.0.1"));
 */
export function denoHandler(
  app: App,
  runtime: Runtime,
  hostname: string,
): (request: Request, info: Deno.ServeHandlerInfo) => Response | Promise<Response> {
  const environment = new StableEnv();
  const serve = (request: Request, info: Deno.ServeHandlerInfo) => {
    const env = environment.read();
    return app.fetch(
      withClientAddress(request, info.remoteAddr, trustedProxies(runtime, env)),
      env,
    );
  };
  return guardsLoopbackHost(hostname, Deno.env.toObject()) ? guardLoopbackHost(serve) : serve;
}

/** The same env object the app reads, so config is parsed once per request. */
function trustedProxies(runtime: Runtime, env: Record<string, string>): readonly string[] {
  try {
    return runtime.config(env).trustedProxies;
  } catch {
    return []; // a config error is the app's to answer, with its own message
  }
}

/**
 * `Deno.env` read on every request, handed on as the same object while its
 * contents are the same: the runtime parses config again (and rebuilds what
 * depends on it) only when the object changes, which cost a /healthz more
 * than the route's own work when every request brought a new one.
 */
class StableEnv {
  #last: Record<string, string> = {};
  #size = -1;

  read(): Record<string, string> {
    const env = Deno.env.toObject();
    const keys = Object.keys(env);
    if (keys.length === this.#size && keys.every((key) => this.#last[key] === env[key])) {
      return this.#last;
    }
    this.#last = env;
    this.#size = keys.length;
    return env;
  }
}

import type { Runtime } from "./runtime.ts";
import { guardLoopbackHost, guardsLoopbackHost } from "../shared/http/loopback-host.ts";
import { withClientAddress } from "../shared/ratelimit/origin.ts";
import { EnvSnapshot } from "../adapters/deno/env-snapshot.ts";
import { markFramedBody } from "../shared/http/body.ts";

type App = {
  fetch: (request: Request, env: Record<string, string>) => Response | Promise<Response>;
};

/**
 * The `Deno.serve` handler of the Deno entries (`main.ts`, `scripts/serve.ts`):
 * the environment read per request (one snapshot, copied again when it
 * changes: `env-snapshot.ts`), the client's address from the connection (or
 * from a trusted proxy's `X-Forwarded-For`, `TRUSTED_PROXIES`), each body
 * marked as framed by the server (`markFramedBody`: one of declared length is
 * read whole), and, bound
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
  const environment = new EnvSnapshot();
  const serve = (request: Request, info: Deno.ServeHandlerInfo) => {
    const env = environment.read();
    // Deno.serve ends a body at its declared length: such a body is read whole.
    markFramedBody(request);
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

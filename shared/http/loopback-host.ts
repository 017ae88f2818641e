import { ForbiddenError, toErrorBody } from "../errors.ts";

/** An address to bind to that only this machine can reach: `127.0.0.0/8`, `::1`, `localhost`. */
export function isLoopbackHostname(hostname: string): boolean {
  const bare = hostname.toLowerCase().replace(/^\[|\]$/g, "").replace(/\.$/, "");
  return bare === "localhost" || bare === "::1" ||
    /^127\.(?:\d{1,3}\.){2}\d{1,3}$/.test(bare);
}

/**
 * A `Host` header naming this machine: `localhost`, `127.0.0.1` (any
 * 127.x.x.x), `[::1]`, each with or without a port. A name that merely
 * resolves to loopback (DNS rebinding: `attacker.example` pointed at
 * 127.0.0.1) is not one.
 */
export function isLoopbackHost(host: string): boolean {
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::\d{1,5})?$/i.exec(host.trim());
  return match !== null && isLoopbackHostname(match[1]!);
}

/**
 * For a server bound to loopback (Deno entries only: on Workers and Deno
 * Deploy the platform routes by name): refuses with 403 every request whose
 * `Host` is not a loopback name, so a web page whose own name was rebound to
 * 127.0.0.1 cannot reach the local server. Wraps the entry's handler, so no
 * header a caller sets can switch it off.
 *
 * @example
 * Deno.serve({ hostname: "127.0.0.1" }, guardLoopbackHost((request) => app.fetch(request)));
 */
export function guardLoopbackHost<Rest extends unknown[]>(
  handler: (request: Request, ...rest: Rest) => Response | Promise<Response>,
): (request: Request, ...rest: Rest) => Response | Promise<Response> {
  // The last Host found to be a loopback name: every request of a local client names the same.
  let loopback: string | undefined;
  return (request, ...rest) => {
    const host = request.headers.get("host") ?? new URL(request.url).host;
    if (host === loopback) return handler(request, ...rest);
    if (isLoopbackHost(host)) {
      loopback = host;
      return handler(request, ...rest);
    }
    const { status, body } = toErrorBody(
      new ForbiddenError(
        "host: this server is bound to loopback and answers only to localhost, 127.0.0.1 or [::1]",
      ),
    );
    return Response.json(body, {
      status,
      headers: { "x-content-type-options": "nosniff", "cache-control": "no-store" },
    });
  };
}

/**
 * Whether a Deno entry bound to `hostname` guards `Host`: on loopback, except
 * on Deno Deploy (which sets `DENO_DEPLOYMENT_ID` and routes by its own names).
 */
export function guardsLoopbackHost(hostname: string, env: Record<string, string>): boolean {
  return isLoopbackHostname(hostname) && !env.DENO_DEPLOYMENT_ID;
}

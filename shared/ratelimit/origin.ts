/**
 * Where a request came from, for rate limiting: only requests from outside
 * are counted, so work sift does on a caller's behalf (in-process step calls,
 * forwarded routes, queue consumers, cron) is never counted twice. Every mark
 * here is one a caller cannot set: object identity for in-process requests,
 * the connection's address on Deno, and on Workers the `cf-connecting-ip`
 * header that Cloudflare sets on every request from the internet.
 */

/** Set by the orchestrator Worker when it forwards a route: the caller's key, already counted. */
export const FORWARDED_KEY_HEADER = "x-sift-rate-limit-key";

const inProcessRequests = new WeakSet<Request>();
const clientAddresses = new WeakMap<Request, string>();

/**
 * Marks a request an app sends to itself (`app.fetch` from a step call, a
 * job, a cron), so it is never counted: only the outer request is.
 *
 * @example
 * await app.fetch(markInProcess(new Request("http://in-process/v1/search", init)), env);
 */
export function markInProcess(request: Request): Request {
  inProcessRequests.add(request);
  return request;
}

/**
 * Deno entries: the client's address for rate limiting and the failed-auth
 * throttle. It is the connection's remote address (`Deno.serve`'s
 * `info.remoteAddr`), or, when that address is one of `trustedProxies`
 * (`TRUSTED_PROXIES`), the last hop of `X-Forwarded-For`: the one that proxy
 * wrote itself. Earlier hops are whatever the client claimed, so they are never read.
 *
 * @example
 * Deno.serve((request, info) => app.fetch(withClientAddress(request, info.remoteAddr), env));
 */
export function withClientAddress(
  request: Request,
  remoteAddr: { transport: string; hostname?: string },
  trustedProxies: readonly string[] = [],
): Request {
  const connection = remoteAddr.hostname;
  if (!connection) return request;
  const forwarded = isTrustedProxy(connection, trustedProxies)
    ? lastForwardedHop(request.headers.get("x-forwarded-for"))
    : undefined;
  clientAddresses.set(request, forwarded ?? connection);
  return request;
}

/** An address as the proxy list compares it: no brackets, no zone, IPv4 out of `::ffff:`. */
export function bareAddress(address: string): string {
  return address.trim().replace(/^\[|\]$/g, "").replace(/%.*$/, "").toLowerCase()
    .replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, "$1");
}

function isTrustedProxy(address: string, trustedProxies: readonly string[]): boolean {
  if (trustedProxies.length === 0) return false;
  const bare = bareAddress(address);
  return trustedProxies.some((proxy) => bareAddress(proxy) === bare);
}

/** The last entry of `X-Forwarded-For` (several header lines arrive joined by commas), if an address. */
function lastForwardedHop(header: string | null): string | undefined {
  const last = header?.split(",").at(-1)?.trim();
  return last && /^\[?[0-9a-f:.]{2,45}\]?$/i.test(last) ? bareAddress(last) : undefined;
}

export type RequestOrigin =
  /** Sent by this app to itself: never counted or charged. */
  | { kind: "in-process" }
  /** Another Worker's call over a service binding (steps, queues): never counted or charged. */
  | { kind: "internal" }
  /** A route the orchestrator Worker forwarded: counted there, its work charged here. */
  | { kind: "forwarded"; key: string }
  /** From outside: counted and charged; `address` when the runtime knows it. */
  | { kind: "external"; address?: string };

function onWorkers(): boolean {
  return globalThis.navigator?.userAgent === "Cloudflare-Workers";
}

const KEY_PATTERN = /^(?:key|ip):[\w.:/-]{1,100}$/;

export function originOf(request: Request): RequestOrigin {
  if (inProcessRequests.has(request)) return { kind: "in-process" };
  if (onWorkers()) {
    const address = request.headers.get("cf-connecting-ip");
    if (address) return { kind: "external", address };
    const forwarded = request.headers.get(FORWARDED_KEY_HEADER);
    return forwarded && KEY_PATTERN.test(forwarded)
      ? { kind: "forwarded", key: forwarded }
      : { kind: "internal" };
  }
  const address = clientAddresses.get(request);
  return address ? { kind: "external", address } : { kind: "external" };
}

/**
 * The limiter's key for an address: IPv4 as it is, IPv6 by its /64 (one
 * client usually holds a whole /64, so single addresses are free to rotate).
 */
export function addressKey(address: string): string {
  const bare = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "").toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(bare);
  if (mapped) return `ip:${mapped[1]}`;
  if (!bare.includes(":")) return `ip:${bare}`;
  const [head = "", tail] = bare.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = tail === undefined
    ? left
    : [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right];
  const prefix = groups.slice(0, 4).map((group) => group.replace(/^0+(?=.)/, ""));
  return `ip:${prefix.join(":")}::/64`;
}

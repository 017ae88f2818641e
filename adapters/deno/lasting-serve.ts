/**
 * `Deno.serve` that outlives a failed accept. Deno's accept loop ends at the
 * first error it meets, `Too many open files` (EMFILE) included, and rejects
 * the server's `finished`: unhandled, that kills the process and every
 * connection it holds (denoland/deno#10148 is the same fault in the older
 * listener API). Here the rejection is caught, the connections already open
 * keep being served (they run on their own), and the port is listened on
 * again once a descriptor is free: meanwhile new connections are refused,
 * and the server answers again as soon as some go away.
 *
 * @example
 * const server = lastingServe({ hostname: "127.0.0.1", port: 8787 }, handler);
 * await server.shutdown();
 */
type Handler = (request: Request, info: Deno.ServeHandlerInfo) => Response | Promise<Response>;

export type LastingServer = {
  addr: Deno.NetAddr;
  /** Stops listening (also while waiting to listen again), then finishes the requests in flight. */
  shutdown: () => Promise<void>;
};

export type LastingServeOptions = Deno.ServeTcpOptions & {
  /** How long to wait before listening again after a failed accept (default 500 ms). */
  retryMs?: number;
  /** Told when accepting failed, and when the port is listened on again. */
  log?: (line: string) => void;
};

/** Throws `Deno.errors.AddrInUse` (and the like) synchronously, as `Deno.serve` does, on the first bind only. */
export function lastingServe(options: LastingServeOptions, handler: Handler): LastingServer {
  const { retryMs = 500, log = console.error, ...serveOptions } = options;
  const servers: Deno.HttpServer<Deno.NetAddr>[] = [];
  let stopping = false;
  let retry: ReturnType<typeof setTimeout> | undefined;

  const watch = (server: Deno.HttpServer<Deno.NetAddr>) => {
    servers.push(server);
    server.finished.catch((error: unknown) => {
      if (stopping) return;
      log(
        `sift stopped accepting connections (${
          error instanceof Error ? error.message : error
        }); the open ones are still served, listening again as soon as it can`,
      );
      retry = setTimeout(listenAgain, retryMs);
    });
  };

  const listenAgain = () => {
    retry = undefined;
    if (stopping) return;
    try {
      // The failed accept loop dropped its listener, so the port is free for a new one.
      watch(Deno.serve({ ...serveOptions, port: first.addr.port, onListen: () => {} }, handler));
      log(`sift listening again on ${first.addr.hostname}:${first.addr.port}`);
    } catch {
      // Still no descriptor for a socket (or the port is briefly taken): try again soon.
      retry = setTimeout(listenAgain, retryMs);
    }
  };

  const first = Deno.serve(serveOptions, handler);
  watch(first);
  return {
    addr: first.addr,
    shutdown: async () => {
      stopping = true;
      clearTimeout(retry);
      await Promise.all(servers.map((server) => server.shutdown().catch(() => {})));
    },
  };
}

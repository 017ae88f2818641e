/**
 * The Postgres servers this folder's tests run against, each test once per
 * server: PGlite (Postgres in WebAssembly with pgvector, nothing to install,
 * as its superuser) and a native Postgres with pgvector (Debian's, as
 * `.ci/run` installs it), as a role that is not a superuser after a superuser
 * made the extension. Without the native binaries its tests skip with the
 * reason, except under CI, where they fail.
 *
 * @example
 * for (const server of postgresServers("replicas_test")) {
 *   const db = once(() => server.start());
 *   Deno.test({ name: `... (${server.name})`, ignore: server.ignore, fn: async () => {
 *     const { url } = await db();
 *   } });
 * }
 */
import { type PgliteServer, startPgliteServer } from "../../scripts/pglite-server.ts";
import { findNativePostgres, type NativeServer, startNativeServer } from "./native-server.ts";

/** What both servers give a test: a `DATABASE_URL`, its port, and a way to stop, kill and restart it. */
export type PostgresServer = Pick<
  PgliteServer,
  "url" | "port" | "output" | "stop" | "kill" | "restart" | typeof Symbol.asyncDispose
>;

export type ServerKind<Server extends PostgresServer = PostgresServer> = {
  name: "PGlite" | "native";
  /** True when this server's tests are skipped (no native Postgres on a developer's machine). */
  ignore: boolean;
  /** A fresh server; `pgvector: false` gives a database without the extension. */
  start: (options?: { pgvector?: boolean }) => Promise<Server>;
};

export function postgresServers(suite: string): ServerKind[] {
  return [{ name: "PGlite", ignore: false, start: startPgliteServer }, nativeServer(suite)];
}

/** The native server alone, for tests of what only it has (roles, other databases). */
export function nativeServer(suite: string): ServerKind<NativeServer> {
  const found = findNativePostgres();
  if ("bin" in found) return { name: "native", ignore: false, start: startNativeServer };
  if (Deno.env.get("CI")) {
    // Not skipped: each native test fails with the reason, and the PGlite ones still run.
    const why = `${suite}: no native Postgres with pgvector (${found.missing}), and CI is set: ` +
      ".ci/run installs postgresql-15 and builds pgvector";
    return {
      name: "native",
      ignore: false,
      start: () => Promise.reject(new Error(why)),
    };
  }
  console.warn(`${suite}: the native Postgres tests are skipped: ${found.missing}`);
  return { name: "native", ignore: true, start: startNativeServer };
}

/** `start` run at the first call only; every later call gets the same promise. */
export function once<T>(start: () => Promise<T>): () => Promise<T> {
  let started: Promise<T> | undefined;
  return () => started ??= start();
}

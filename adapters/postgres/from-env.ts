import type { Config } from "../../shared/config.ts";
import type { VectorIndex } from "../../shared/vector/port.ts";
import { PostgresIndex, PostgresSchemaGate } from "./index.ts";

/**
 * The Postgres index this request should use, or undefined when none is
 * configured. An entry passes one to `Runtime` (`postgres`); entries without
 * one (the per-function Workers) never bundle the Postgres client.
 */
export type PostgresFromEnv = (
  config: Config,
  env: Record<string, unknown>,
) => VectorIndex | undefined;

/**
 * Deno: one pooled `PostgresIndex` per `DATABASE_URL` for the life of the
 * process, shared by every request (the pool is created at the first call,
 * not here).
 *
 * @example
 * const runtime = new Runtime({ postgres: postgresPool() });
 */
export function postgresPool(): PostgresFromEnv {
  const pools = new Map<string, PostgresIndex>();
  const gate = new PostgresSchemaGate();
  return (config) => {
    const database = config.database;
    if (!database) return undefined;
    const key = `${database.timeoutMs} ${database.url}`;
    let index = pools.get(key);
    if (!index) {
      index = new PostgresIndex({ url: database.url, timeoutMs: database.timeoutMs, gate });
      pools.set(key, index);
    }
    return index;
  };
}

/** The `[[hyperdrive]]` binding's shape: what postgres.js needs of it. */
type HyperdriveBinding = { connectionString: string };

function hyperdriveOf(env: Record<string, unknown>): HyperdriveBinding | undefined {
  const binding = env.HYPERDRIVE as Partial<HyperdriveBinding> | undefined;
  return typeof binding?.connectionString === "string"
    ? { connectionString: binding.connectionString }
    : undefined;
}

/**
 * Workers: a `PostgresIndex` per request, through the `HYPERDRIVE` binding
 * (else `DATABASE_URL`). A Worker's sockets belong to the request that opened
 * them, so clients are never shared; Hyperdrive pools the connections to the
 * database. Which databases are migrated is remembered for the isolate.
 */
export function postgresFromBindings(): PostgresFromEnv {
  const gate = new PostgresSchemaGate();
  return (config, env) => {
    const url = hyperdriveOf(env)?.connectionString ?? config.database?.url;
    if (!url) return undefined;
    return new PostgresIndex({
      url,
      max: 5,
      gate,
      idleTimeoutSeconds: 5,
      ...(config.database ? { timeoutMs: config.database.timeoutMs } : {}),
    });
  };
}

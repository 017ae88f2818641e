import type { Sql, TransactionSql } from "postgres";

/** postgres.js's codes for a connection that went away (the socket's own are `E…`: ECONNRESET). */
const LOST_CODES = new Set(["CONNECTION_CLOSED", "CONNECTION_DESTROYED", "CONNECTION_ENDED"]);

/** The connection itself failed (closed, reset, destroyed), as opposed to an answer from the server. */
export function connectionLost(error: unknown): boolean {
  const { code, severity } = (error ?? {}) as { code?: unknown; severity?: unknown };
  return typeof code === "string" && severity === undefined &&
    (LOST_CODES.has(code) || /^E[A-Z]+$/.test(code));
}

/**
 * `sql.begin(work)`, minus the crash postgres.js 3.4.9 has when the
 * connection dies mid-transaction (porsager/postgres#1208): begin() answers
 * a failed callback with its own `ROLLBACK`, written from a `setImmediate` to
 * a socket it has already set to null. That TypeError is uncaught, and the
 * whole sift process exits right after the request got its 503. So a
 * callback that failed because the connection is gone never settles:
 * begin() does not roll back (a dead connection's transaction is rolled
 * back by the server anyway), and begin() itself still rejects, with
 * CONNECTION_CLOSED, from its connection's close handler. The pending
 * promise holds nothing anyone can reach, so it is collected.
 *
 * Once `signal` (the call's deadline) aborts, the transaction sends no
 * further statement and rolls back instead of committing: a request already
 * answered 503 stores nothing, and its connection goes back to the pool as
 * soon as the statement in flight ends (the server bounds it).
 *
 * @example
 * const moved = await inTransaction(sql, (tx) => writeInTransaction(tx, plan), { signal });
 */
export async function inTransaction<T>(
  sql: Sql,
  work: (tx: TransactionSql) => Promise<T>,
  options: { signal?: AbortSignal } = {},
): Promise<T> {
  const { signal } = options;
  return await sql.begin(async (tx) => {
    try {
      const result = await work(signal ? untilAborted(tx, signal) : tx);
      signal?.throwIfAborted();
      return result;
    } catch (error) {
      if (connectionLost(error)) return await new Promise<never>(() => {});
      throw error;
    }
  }) as T;
}

/** `tx`, refusing to start a statement once `signal` has aborted (it throws the signal's reason). */
function untilAborted(tx: TransactionSql, signal: AbortSignal): TransactionSql {
  const unsafe = tx.unsafe.bind(tx);
  const guardedUnsafe = ((...args: Parameters<typeof unsafe>) => {
    signal.throwIfAborted();
    return unsafe(...args);
  }) as typeof unsafe;
  return new Proxy(tx, {
    apply(target, self, args) {
      signal.throwIfAborted();
      return Reflect.apply(target, self, args);
    },
    get(target, key, receiver) {
      return key === "unsafe" ? guardedUnsafe : Reflect.get(target, key, receiver);
    },
  });
}

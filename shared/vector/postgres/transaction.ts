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
 * @example
 * const moved = await inTransaction(sql, (tx) => writeInTransaction(tx, plan));
 */
export async function inTransaction<T>(
  sql: Sql,
  work: (tx: TransactionSql) => Promise<T>,
): Promise<T> {
  return await sql.begin(async (tx) => {
    try {
      return await work(tx);
    } catch (error) {
      if (connectionLost(error)) return await new Promise<never>(() => {});
      throw error;
    }
  }) as T;
}

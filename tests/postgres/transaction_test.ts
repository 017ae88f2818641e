/**
 * A transaction whose database dies under it (#31's outage bug): postgres.js
 * 3.4.9's begin() writes its ROLLBACK to the socket it has just set to null,
 * from a setImmediate, and the uncaught TypeError ended the whole sift
 * process right after its 503. `inTransaction` rejects and nothing else
 * happens; here an uncaught error would fail the test. Its own server of
 * each kind (servers.ts), since it is killed.
 */
import assert from "node:assert/strict";
import postgres from "postgres";
import { connectionLost, inTransaction } from "../../adapters/postgres/transaction.ts";
import { postgresServers } from "./servers.ts";

for (const server of postgresServers("transaction_test")) {
  Deno.test({
    name:
      `the database killed mid-transaction: the transaction rejects, the process lives on (${server.name})`,
    ignore: server.ignore,
    sanitizeResources: false,
    sanitizeOps: false,
    fn: async () => {
      await using db = await server.start({ pgvector: false });
      const sql = postgres(db.url, { max: 2, onnotice: () => {} });
      let started!: () => void;
      const inside = new Promise<void>((resolve) => started = resolve);
      // Its outcome is taken at once: it rejects while the test waits for the kill.
      const outcome = inTransaction(sql, async (tx) => {
        await tx`SELECT 1`;
        started();
        await tx`SELECT pg_sleep(30)`; // in flight when the database dies
        return "committed";
      }).then(() => undefined, (error: unknown) => error);
      await inside;
      await new Promise((resolve) => setTimeout(resolve, 300));
      await db.kill();
      const error = await outcome;
      assert.equal((error as { code?: string } | undefined)?.code, "CONNECTION_CLOSED");
      assert.ok(connectionLost(error));
      // The crash came from a setImmediate right after the rejection: give it several turns.
      await new Promise((resolve) => setTimeout(resolve, 500));
      await sql.end({ timeout: 0 });

      await db.restart();
      const again = postgres(db.url, { max: 1, onnotice: () => {} });
      try {
        const [row] = await inTransaction(again, (tx) => tx<{ one: number }[]>`SELECT 1 AS one`);
        assert.equal(row?.one, 1);
      } finally {
        await again.end({ timeout: 5 });
      }
    },
  });
}

Deno.test("connectionLost tells a dead connection from the server's answer", () => {
  assert.ok(connectionLost({ code: "CONNECTION_CLOSED" }));
  assert.ok(connectionLost({ code: "ECONNRESET" }));
  assert.ok(!connectionLost({ code: "57P01", severity: "FATAL" })); // the server said it
  assert.ok(!connectionLost({ code: "UNDEFINED_VALUE" })); // a caller's mistake in postgres.js
  assert.ok(!connectionLost(new TypeError("a bug")));
  assert.ok(!connectionLost(undefined));
});

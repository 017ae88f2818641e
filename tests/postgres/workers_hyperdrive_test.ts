/**
 * Workers with the index in Postgres: `wrangler dev` runs the all-in-one
 * Worker of workers/postgres/wrangler.toml, whose `[[hyperdrive]]` binding
 * reaches a local Postgres (pglite-server, and a native one as a role that is
 * not a superuser) through Hyperdrive's local connection string.
 * Documents go in and are found through the Worker on every mode, and they are
 * rows in the database.
 */
import assert from "node:assert/strict";
import postgres from "postgres";
import { startWranglerDev } from "../../scripts/wrangler-dev.ts";
import { postgresServers } from "./servers.ts";

for (const server of postgresServers("workers_hyperdrive_test")) {
  Deno.test({
    name:
      `the Postgres Worker in wrangler dev ingests and searches through Hyperdrive (${server.name})`,
    ignore: server.ignore,
    sanitizeResources: false,
    sanitizeOps: false,
    fn: async () => {
      await using db = await server.start();
      const persistTo = await Deno.makeTempDir({ prefix: "sift-hyperdrive-" });
      const dev = await startWranglerDev(["workers/postgres/wrangler.toml"], {
        persistTo,
        env: { CLOUDFLARE_HYPERDRIVE_LOCAL_CONNECTION_STRING_HYPERDRIVE: db.url },
        vars: { DEMO_CORPUS: "false" },
        logLevel: "log",
      });
      try {
        await dev.ready("/healthz");
        const ingested = await dev.fetch("/v1/documents", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            documents: [
              { id: "tide", text: "Tide tables for the harbour: high water at dawn and dusk." },
              { id: "ledger", text: "The lighthouse ledger records every ship that passes." },
            ],
          }),
        }, 120_000);
        assert.equal(ingested.status, 201, `${await ingested.text()}\n${dev.output()}`);
        for (const mode of ["dense", "sparse", "hybrid"]) {
          const response = await dev.fetch("/v1/search", {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ query: "lighthouse ledger ships", mode, top_k: 2 }),
          });
          const body = await response.json() as { results: { doc_id: string }[] };
          assert.equal(response.status, 200, JSON.stringify(body));
          assert.equal(body.results[0]?.doc_id, "ledger", mode);
        }

        // The first call made the schema; /healthz keeps a result 5 s.
        type Health = { providers: { index: string }; checks: { index: string } };
        let health: Health | undefined;
        for (const until = Date.now() + 30_000; Date.now() < until;) {
          health = await (await dev.fetch("/healthz")).json() as Health;
          if (health.checks.index === "ok") break;
          await new Promise((resolve) => setTimeout(resolve, 1000));
        }
        assert.equal(health?.providers.index, "postgres", dev.output());
        assert.equal(health?.checks.index, "ok", JSON.stringify(health));

        const sql = postgres(db.url, { max: 1, onnotice: () => {} });
        try {
          const rows = await sql`SELECT doc_id, count(*)::int AS chunks FROM sift_chunks
          WHERE tenant = '' AND namespace = 'default' GROUP BY doc_id ORDER BY doc_id`;
          assert.deepEqual(rows.map((row) => [row.doc_id, row.chunks]), [["ledger", 1], [
            "tide",
            1,
          ]]);
        } finally {
          await sql.end();
        }
      } finally {
        await dev.stop();
        await Deno.remove(persistTo, { recursive: true }).catch(() => {});
      }
    },
  });
}

/**
 * A write touches only its rows (#41): replacing a document reads the
 * document index and the primary key, never every chunk of every tenant.
 * Checked on the native server's own counters (`pg_stat_user_tables`),
 * over enough rows that the planner would rather not scan them.
 */
import assert from "node:assert/strict";
import postgres from "postgres";
import type { IndexedChunk } from "../../shared/vector/port.ts";
import { PostgresIndex } from "../../adapters/postgres/index.ts";
import { nativeServer, once } from "./servers.ts";

const server = nativeServer("writes_test");
const started = once(() => server.start());

const chunk = (doc: string, text: string): IndexedChunk => ({
  id: `${doc}#0`,
  text,
  vector: [1, 0, 0, 0],
  metadata: { doc_id: doc, chunk_index: 0 },
});

/**
 * Sequential scans of sift_chunks so far. A backend reports its counts at
 * times of its own, and always when it ends: the writers' pools are closed
 * before this is read.
 */
async function sequentialScans(sql: postgres.Sql): Promise<number> {
  const [row] = await sql<{ scans: string }[]>`
    SELECT seq_scan AS scans FROM pg_stat_user_tables WHERE relname = 'sift_chunks'`;
  return Number(row!.scans);
}

Deno.test({
  name: "replacing a document in a namespace of 20,000 chunks reads indexes, not the table",
  ignore: server.ignore,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const db = await started();
    const sql = postgres(db.url, { max: 1, onnotice: () => {} });
    /** Writes through an index of its own, closed after: its connections' counts are in. */
    const write = async (chunks: IndexedChunk[]) => {
      const index = new PostgresIndex({ url: db.url });
      try {
        await index.upsert(chunks, { namespace: "harbour" });
      } finally {
        await index.close();
      }
    };
    try {
      await write([chunk("first", "The first note of the harbour.")]);
      // A large namespace: its other documents' rows (the write's own tenant and namespace, so
      // the primary key's prefix alone does not narrow the delete).
      const [home] = await sql<{ tenant: string; namespace: string }[]>`
        SELECT tenant, namespace FROM sift_chunks WHERE id = 'first#0'`;
      await sql`INSERT INTO sift_chunks
          (tenant, namespace, id, doc_id, chunk_index, text, metadata, embedding, dims, terms,
           length)
        SELECT ${home!.tenant}, ${home!.namespace}, 'doc' || g || '#0', 'doc' || g, 0,
          'filler ' || g, '{}',
          '[0,1,0,0]'::vector, 4, to_tsvector('simple', 'filler'), 1
        FROM generate_series(1, 20000) g`;
      await sql`ANALYZE sift_chunks`;
      const before = await sequentialScans(sql);
      await write([chunk("first", "The first note, written again.")]);
      await write([chunk("second", "A second note of the harbour.")]);
      assert.equal(await sequentialScans(sql), before);
      const [kept] = await sql<{ text: string }[]>`
        SELECT text FROM sift_chunks WHERE namespace = 'harbour' AND id = 'first#0'`;
      assert.equal(kept?.text, "The first note, written again.");
    } finally {
      await sql.end({ timeout: 5 });
      await db[Symbol.asyncDispose]();
    }
  },
});

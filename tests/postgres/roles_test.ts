/**
 * sift as a managed service's role (#41): on a native Postgres, the role
 * `sift` is not a superuser and owns its database, and a superuser ran
 * `CREATE EXTENSION vector` beforehand (what a DBA does on Neon, Supabase,
 * RDS or Cloud SQL). The index starts, migrates, writes and searches; a
 * second start finds the schema made; a role without the extension that may
 * not create it, and a statement the server refuses, stop the start with one
 * line that says what to do or which statement failed.
 */
import assert from "node:assert/strict";
import postgres from "postgres";
import type { IndexedChunk } from "../../shared/vector/port.ts";
import { PostgresIndex } from "../../adapters/postgres/index.ts";
import { SCHEMA_VERSION } from "../../adapters/postgres/schema.ts";
import { preparePostgres } from "../../adapters/postgres/startup.ts";
import type { NativeServer } from "./native-server.ts";
import { nativeServer, once } from "./servers.ts";

const server = nativeServer("roles_test");
const started = once(() => server.start());

const test = (name: string, fn: (db: NativeServer) => Promise<void>) =>
  Deno.test({
    name,
    ignore: server.ignore,
    sanitizeResources: false,
    sanitizeOps: false,
    fn: async () => await fn(await started()),
  });

/** Runs `work` with one connection to `url`, then closes it. */
async function withSql<T>(url: string, work: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    return await work(sql);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** `preparePostgres` on a fresh index (its own pool and schema gate), closed after. */
async function start(url: string): Promise<string | undefined> {
  const index = new PostgresIndex({ url });
  try {
    return await preparePostgres(index);
  } finally {
    await index.close();
  }
}

const CHUNKS: IndexedChunk[] = [
  ["tide", "Tide tables for the harbour: high water at dawn and dusk.", [1, 0, 0, 0]],
  ["ledger", "The lighthouse ledger records every ship that passes.", [0, 1, 0, 0]],
  ["quay", "Nets are mended on the quay in winter.", [0, 0, 1, 0]],
].map(([id, text, vector]) => ({
  id: `${id}#0`,
  text: text as string,
  vector: vector as number[],
  metadata: { doc_id: id as string, chunk_index: 0 },
}));

test("a role that is not a superuser, with pgvector made by a superuser, migrates, writes and searches", async (db) => {
  const [role] = await withSql(
    db.url,
    (sql) =>
      sql`SELECT rolsuper, rolcreatedb, (SELECT extowner::regrole::text FROM pg_extension
      WHERE extname = 'vector') AS extension_owner FROM pg_roles WHERE rolname = current_user`,
  );
  assert.deepEqual(role, { rolsuper: false, rolcreatedb: false, extension_owner: "postgres" });

  assert.equal(await start(db.url), undefined);
  const index = new PostgresIndex({ url: db.url });
  try {
    await index.upsert(CHUNKS, { namespace: "harbour" });
    const asked = { text: "lighthouse ledger", vector: [0, 1, 0.1, 0], topK: 2 };
    for (const mode of ["dense", "sparse", "hybrid"] as const) {
      const hits = await index.query({ ...asked, mode, namespace: "harbour" });
      assert.equal(hits[0]?.doc_id, "ledger", mode);
    }
  } finally {
    await index.close();
  }
  // The search's HNSW settings are still scoped to the call, on sift_dense itself.
  const [dense] = await withSql(
    db.url,
    (sql) => sql`SELECT proconfig FROM pg_proc WHERE proname = 'sift_dense'`,
  );
  assert.ok(
    (dense?.proconfig as string[]).some((setting) => /^hnsw\.ef_search=\d+$/.test(setting)),
    String(dense?.proconfig),
  );
});

test("a second start finds the schema migrated and the chunks in place", async (db) => {
  assert.equal(await start(db.url), undefined);
  const [schema] = await withSql(
    db.url,
    (sql) =>
      sql`SELECT version, (SELECT count(*)::int FROM sift_chunks) AS chunks FROM sift_schema`,
  );
  assert.deepEqual(schema, { version: SCHEMA_VERSION, chunks: CHUNKS.length });
  // A new session searches densely before anything else loaded pgvector's library in it.
  const index = new PostgresIndex({ url: db.url });
  try {
    const hits = await index.query({
      text: "",
      vector: [1, 0, 0, 0],
      mode: "dense",
      topK: 1,
      namespace: "harbour",
    });
    assert.equal(hits[0]?.doc_id, "tide");
  } finally {
    await index.close();
  }
});

test("a role without pgvector that may not create it stops the start with one line naming it", async (db) => {
  const url = await db.createDatabase("bare", { pgvector: false });
  const problem = await start(url);
  assert.equal(
    problem,
    'sift cannot start: The Postgres index needs the pgvector extension ("vector"), and role ' +
      '"sift" could not create it in database "bare" (permission denied to create extension ' +
      '"vector"): have a superuser, or your service\'s admin role, run CREATE EXTENSION vector; ' +
      "in that database once.",
  );
  // Once the DBA has run that one statement, the same role starts.
  await withSql(db.superuserUrl("bare"), (sql) => sql`CREATE EXTENSION vector`);
  assert.equal(await start(url), undefined);
});

test("a role that may create pgvector gets it made at start", async (db) => {
  await db.createDatabase("allowed", { pgvector: false });
  assert.equal(await start(db.superuserUrl("allowed")), undefined);
  const [found] = await withSql(
    db.superuserUrl("allowed"),
    (sql) => sql`SELECT count(*)::int AS vector FROM pg_extension WHERE extname = 'vector'`,
  );
  assert.equal(found?.vector, 1);
});

test("a statement the server refuses at start is named, with Postgres's message", async (db) => {
  const url = await db.createDatabase("taken");
  // Another application's table under sift's name, made by someone else.
  await withSql(db.superuserUrl("taken"), (sql) => sql`CREATE TABLE sift_chunks (other integer)`);
  assert.equal(
    await start(url),
    'sift cannot start: the index (Postgres) failed "CREATE TABLE sift_chunks": ' +
      'relation "sift_chunks" already exists',
  );
});

test("zz: stops the server", async (db) => {
  await db[Symbol.asyncDispose]();
});

import type { Sql, TransactionSql } from "postgres";
import { SiftError } from "../../shared/errors.ts";
import { SIFT_DENSE, SIFT_SPARSE } from "./search-functions.ts";
import { inTransaction } from "./transaction.ts";

/** The schema this sift writes; the database keeps the version it holds in `sift_schema`. */
export const SCHEMA_VERSION = 2;

/** Serializes schema changes between replicas that start at once (any constant will do). */
const SCHEMA_LOCK = 7_303_001;

/**
 * Each migration takes the schema from version `index` to `index + 1`;
 * a migration, once released, is never edited (databases hold its result).
 * Version 1: chunks with their vector (`vector`, any width: an HNSW index per
 * width is made when the first chunk of that width arrives, see
 * `ensureVectorIndex`) and their terms (`tsvector`, GIN); per namespace, the
 * chunk count and summed length, and per term, how many chunks hold it
 * (BM25's statistics, kept in the same transaction as the chunks).
 */
const MIGRATIONS: string[][] = [[
  `CREATE TABLE sift_chunks (
    tenant text COLLATE "C" NOT NULL,
    namespace text COLLATE "C" NOT NULL,
    id text COLLATE "C" NOT NULL,
    doc_id text COLLATE "C" NOT NULL,
    chunk_index integer NOT NULL,
    text text NOT NULL,
    metadata jsonb NOT NULL,
    embedding vector NOT NULL,
    dims integer NOT NULL,
    terms tsvector NOT NULL,
    length integer NOT NULL,
    PRIMARY KEY (tenant, namespace, id)
  )`,
  `CREATE INDEX sift_chunks_document ON sift_chunks (tenant, namespace, doc_id, chunk_index)`,
  `CREATE INDEX sift_chunks_terms ON sift_chunks USING gin (terms)`,
  `CREATE TABLE sift_namespaces (
    tenant text COLLATE "C" NOT NULL,
    namespace text COLLATE "C" NOT NULL,
    chunks bigint NOT NULL,
    total_length bigint NOT NULL,
    dims integer,
    PRIMARY KEY (tenant, namespace)
  )`,
  `CREATE TABLE sift_terms (
    tenant text COLLATE "C" NOT NULL,
    namespace text COLLATE "C" NOT NULL,
    term text COLLATE "C" NOT NULL,
    df integer NOT NULL,
    PRIMARY KEY (tenant, namespace, term)
  )`,
  // Dense search: the HNSW index of the query's width, searched with an ef_search
  // that fits the candidates asked for and an iterative scan, so a tenant's
  // filter does not starve the results. The settings live and die with the call.
  `CREATE FUNCTION sift_dense(
    p_tenant text, p_namespace text, p_query vector, p_limit integer,
    p_filter jsonpath, p_vars jsonb
  ) RETURNS TABLE (id text, score double precision)
  LANGUAGE plpgsql STABLE
  SET hnsw.ef_search = 40
  SET hnsw.iterative_scan = 'relaxed_order'
  AS $fn$
  DECLARE
    width integer := vector_dims(p_query);
    held integer;
    nearest text := CASE WHEN width <= 4000
      THEN format('embedding::halfvec(%s) <=> $3::halfvec(%s)', width, width)
      ELSE 'embedding <=> $3' END;
  BEGIN
    -- A query of another width than the namespace holds is the caller's mistake (400).
    SELECT n.dims INTO held FROM sift_namespaces n
      WHERE n.tenant = p_tenant AND n.namespace = p_namespace AND n.chunks > 0;
    IF held IS NOT NULL AND held <> width THEN
      RAISE EXCEPTION USING ERRCODE = 'SW001', MESSAGE = format(
        'The index holds %s-dimensional vectors but the query has %s', held, width);
    END IF;
    PERFORM set_config('hnsw.ef_search', least(1000, greatest(40, p_limit * 2))::text, true);
    RETURN QUERY EXECUTE format(
      'SELECT c.id::text, 1 - (c.embedding <=> $3) AS score FROM (
         SELECT s.id, s.embedding FROM sift_chunks s
         WHERE s.tenant = $1 AND s.namespace = $2 AND s.dims = %s
           AND ($5 IS NULL OR jsonb_path_match(s.metadata, $5, $6))
         ORDER BY %s LIMIT $4 * 2) c
       ORDER BY score DESC, c.id LIMIT $4', width, nearest)
    USING p_tenant, p_namespace, p_query, p_limit, p_filter, p_vars;
  END
  $fn$`,
], [
  // Version 2: dense search never reads every vector of a small table; sparse search reads
  // only the postings it must (search-functions.ts), from terms kept in the row: a chunk
  // with a wide vector passed 2 KB, and its tsvector went out of line to TOAST, three
  // page reads per chunk scored (137 ms → 45 ms for 5k chunks at 2,048 dimensions).
  // The vector still goes out of line (its storage is EXTERNAL); rows written before keep
  // their layout until rewritten.
  `ALTER TABLE sift_chunks ALTER COLUMN terms SET STORAGE MAIN, SET (toast_tuple_target = 8160)`,
  SIFT_DENSE,
  SIFT_SPARSE,
]];

/** The database has no pgvector and sift cannot create it: sift cannot keep vectors there. */
export class PgvectorMissingError extends SiftError {
  override name = "PgvectorMissingError";
  constructor(why: string, remedy: string) {
    super(
      "not_configured",
      503,
      `The Postgres index needs the pgvector extension ("vector"), and ${why}: ${remedy}.`,
    );
  }
}

/** The database was migrated by a newer sift than this one. */
export class SchemaTooNewError extends SiftError {
  override name = "SchemaTooNewError";
  constructor(found: number) {
    super(
      "not_configured",
      503,
      `The Postgres index's schema is version ${found}, newer than this sift's ` +
        `${SCHEMA_VERSION}: upgrade sift.`,
    );
  }
}

/**
 * Creates or migrates sift's tables, in one transaction under an advisory
 * lock (replicas starting together take turns), after making sure pgvector
 * is there. Resolves to the version the database now holds.
 */
export async function migrate(sql: Sql): Promise<number> {
  return await inTransaction(sql, async (tx) => {
    // A migration may build an index over a large table: not cut off at DATABASE_TIMEOUT_MS.
    await tx`SET LOCAL statement_timeout = 0`;
    await tx`SELECT pg_advisory_xact_lock(${SCHEMA_LOCK})`;
    await ensurePgvector(tx);
    await tx`CREATE TABLE IF NOT EXISTS sift_schema (
      singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
      version integer NOT NULL
    )`;
    const [row] = await tx<{ version: number }[]>`SELECT version FROM sift_schema`;
    const found = row?.version ?? 0;
    if (found > SCHEMA_VERSION) throw new SchemaTooNewError(found);
    for (let version = found; version < SCHEMA_VERSION; version++) {
      for (const statement of MIGRATIONS[version]!) await tx.unsafe(statement);
    }
    await tx`INSERT INTO sift_schema (version) VALUES (${SCHEMA_VERSION})
      ON CONFLICT (singleton) DO UPDATE SET version = excluded.version`;
    return SCHEMA_VERSION;
  });
}

/**
 * Creates pgvector when the database lacks it (a role that may not, as an
 * app's role on a managed service, needs a DBA to have run `CREATE EXTENSION
 * vector`), then loads its library into this session.
 */
async function ensurePgvector(tx: TransactionSql): Promise<void> {
  const [found] = await tx<{ installed: boolean; available: boolean; who: string; db: string }[]>`
    SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector') AS installed,
      EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') AS available,
      current_user AS who, current_database() AS db`;
  if (!found!.installed) await createPgvector(tx, found!);
  // Until pgvector's library is loaded in a session, Postgres does not know its settings, and
  // a role that is not a superuser may not name an unknown one in CREATE FUNCTION ... SET
  // (sift_dense's hnsw.ef_search). LOAD is for superusers; any vector value loads it.
  await tx`SELECT vector_dims('[1]'::vector)`;
}

async function createPgvector(
  tx: TransactionSql,
  found: { available: boolean; who: string; db: string },
): Promise<void> {
  if (!found.available) {
    throw new PgvectorMissingError(
      "this database does not offer it",
      "install pgvector (Neon, Supabase and RDS ship it) or point DATABASE_URL elsewhere",
    );
  }
  try {
    await tx`CREATE EXTENSION IF NOT EXISTS vector`;
  } catch (error) {
    throw new PgvectorMissingError(
      `role "${found.who}" could not create it in database "${found.db}" ` +
        `(${(error as Error).message})`,
      "have a superuser, or your service's admin role, run CREATE EXTENSION vector; " +
        "in that database once",
    );
  }
}

/**
 * The HNSW index (cosine) for vectors `width` wide, made the first time a
 * chunk of that width is written. `halfvec` keeps up to 4,000 dimensions in
 * the index (`vector`'s HNSW stops at 2,000) at half the size; scores are
 * computed on the full vectors. Wider vectors are searched exactly.
 */
export async function ensureVectorIndex(sql: Sql, width: number): Promise<void> {
  if (!Number.isInteger(width) || width < 1 || width > 4000) return;
  try {
    await sql.unsafe(
      `CREATE INDEX IF NOT EXISTS sift_chunks_hnsw_${width} ON sift_chunks ` +
        `USING hnsw ((embedding::halfvec(${width})) halfvec_cosine_ops) WHERE dims = ${width}`,
    );
  } catch (error) {
    // Two replicas making it at once: the loser sees the winner's index (unique violation).
    if ((error as { code?: string }).code !== "23505") throw error;
  }
}

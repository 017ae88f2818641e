import type { Sql, TransactionSql } from "postgres";
import { SiftError } from "../../errors.ts";
import { inTransaction } from "./transaction.ts";

/** The schema this sift writes; the database keeps the version it holds in `sift_schema`. */
export const SCHEMA_VERSION = 1;

/** Serializes schema changes between replicas that start at once (any constant will do). */
const SCHEMA_LOCK = 7_303_001;

/**
 * Each migration takes the schema from version `index` to `index + 1`.
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
]];

/** The database has no pgvector: sift cannot keep vectors there. */
export class PgvectorMissingError extends SiftError {
  override name = "PgvectorMissingError";
  constructor(detail: string) {
    super(
      "not_configured",
      503,
      `The Postgres index needs the pgvector extension, and this database ${detail}: ` +
        "install pgvector (Neon, Supabase and RDS ship it) or point DATABASE_URL elsewhere.",
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

async function ensurePgvector(tx: TransactionSql): Promise<void> {
  const installed = await tx`SELECT 1 FROM pg_extension WHERE extname = 'vector'`;
  if (installed.length) return;
  const available = await tx`SELECT 1 FROM pg_available_extensions WHERE name = 'vector'`;
  if (!available.length) throw new PgvectorMissingError("does not offer it");
  try {
    await tx`CREATE EXTENSION IF NOT EXISTS vector`;
  } catch (error) {
    throw new PgvectorMissingError(
      `would not let this user install it (${(error as Error).message})`,
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

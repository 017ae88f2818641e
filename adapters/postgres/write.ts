import type { TransactionSql } from "postgres";
import { InvalidRequestError } from "../../shared/errors.ts";
import type { IndexedChunk } from "../../shared/vector/port.ts";
import { chunkTerms, documentFrequencies, tsvectorLiteral } from "./terms.ts";
import { vectorLiteral } from "./vector-literal.ts";

/** Rows per INSERT: one statement's values stay a few megabytes at 2,048 dimensions. */
const INSERT_BATCH = 200;

/** A chunk's columns, in the order an INSERT takes them, with the type each value is read as. */
const CHUNK_COLUMNS = [
  ["tenant", "text"],
  ["namespace", "text"],
  ["id", "text"],
  ["doc_id", "text"],
  ["chunk_index", "int"],
  ["text", "text"],
  ["metadata", "jsonb"],
  ["embedding", "vector"],
  ["dims", "int"],
  ["terms", "tsvector"],
  ["length", "int"],
] as const;

/**
 * `INSERT … VALUES ($1::text, …), (…)` for `count` rows: each value its own
 * parameter, read by its type's own input function. Sent as one JSON
 * document instead, Postgres parsed the whole of it first (at 2,048
 * dimensions, 200 rows: 190-210 ms against 130-190 ms this way).
 */
function insertStatement(count: number): string {
  const width = CHUNK_COLUMNS.length;
  const rows = Array.from(
    { length: count },
    (_, row) =>
      `(${
        CHUNK_COLUMNS.map(([, type], column) => `$${row * width + column + 1}::${type}`).join(",")
      })`,
  );
  return `INSERT INTO sift_chunks (${CHUNK_COLUMNS.map(([name]) => name).join(", ")})
    VALUES ${rows.join(", ")}`;
}

function insertValues(tenant: string, namespace: string, row: ChunkRow): unknown[] {
  return [
    tenant,
    namespace,
    row.id,
    row.doc_id,
    row.chunk_index,
    row.text,
    row.metadata, // postgres.js writes it as JSON: the statement types it jsonb
    row.embedding,
    row.dims,
    row.terms,
    row.length,
  ];
}

/** A chunk as its row holds it, the vector and terms as their types' text input. */
type ChunkRow = {
  id: string;
  doc_id: string;
  chunk_index: number;
  text: string;
  metadata: IndexedChunk["metadata"];
  embedding: string;
  dims: number;
  terms: string;
  length: number;
};

/** What one write changes, worked out before the transaction opens (it stays short). */
export type WritePlan = {
  tenant: string;
  namespace: string;
  docIds: string[];
  chunkIds: string[];
  rows: ChunkRow[];
  /** Chunks per term among the new chunks. */
  added: Map<string, number>;
  addedLength: number;
  width: number | undefined;
};

export function writePlan(
  tenant: string,
  namespace: string,
  docIds: string[],
  chunks: IndexedChunk[],
): WritePlan {
  const width = chunks[0]?.vector.length;
  const other = chunks.find((chunk) => chunk.vector.length !== width);
  if (other) {
    throw new InvalidRequestError(
      `The index holds ${width}-dimensional vectors but a chunk has ${other.vector.length}: ` +
        "re-ingest everything after changing the embedding model",
    );
  }
  const terms = chunks.map(chunkTerms);
  return {
    tenant,
    namespace,
    docIds,
    chunkIds: chunks.map((chunk) => chunk.id),
    rows: chunks.map((chunk, i) => ({
      id: chunk.id,
      doc_id: chunk.metadata.doc_id,
      chunk_index: chunk.metadata.chunk_index,
      text: chunk.text,
      metadata: chunk.metadata,
      embedding: vectorLiteral(chunk.vector),
      dims: chunk.vector.length,
      terms: tsvectorLiteral(terms[i]!.counts),
      length: terms[i]!.length,
    })),
    added: documentFrequencies(terms),
    addedLength: terms.reduce((sum, { length }) => sum + length, 0),
    width,
  };
}

/**
 * The write, inside its transaction. Writers of one namespace run side by
 * side unless they write the same documents: each takes the transaction-level
 * advisory locks of the documents it writes (`lockDocuments`), deletes those
 * documents' chunks and any chunk with a written id, inserts the new chunks (the costly part: the HNSW and GIN
 * indexes), and only then moves BM25's statistics by the difference: term
 * rows in one order, the namespace's row last, so the rows every writer
 * shares are held from there to the commit only. Resolves to how many chunks
 * went. The ids go in as arrays (`= ANY (ARRAY(...))`), so the delete reads
 * the document index and the primary key; as `IN (subquery) OR IN
 * (subquery)` it scanned every chunk of every tenant (17 ms → 0.1 ms at 100k
 * rows, EXPLAIN ANALYZE on PG 15). Two writers giving one chunk id to
 * different documents meet at the primary key: the later one fails with a
 * unique violation and is tried again (index.ts), when the earlier one's
 * chunk is there to delete.
 */
export async function writeInTransaction(tx: TransactionSql, plan: WritePlan): Promise<number> {
  const { tenant, namespace, width } = plan;
  // The documents replaced, and those the chunks belong to (an upsert names no document).
  await lockDocuments(tx, tenant, namespace, [
    ...plan.docIds,
    ...plan.rows.map((row) => row.doc_id),
  ]);
  const docIds = JSON.stringify(plan.docIds);
  await tx`INSERT INTO sift_namespaces (tenant, namespace, chunks, total_length)
    VALUES (${tenant}, ${namespace}, 0, 0) ON CONFLICT (tenant, namespace) DO NOTHING`;
  const [held] = await tx<{ dims: number | null; chunks: string }[]>`
    SELECT dims, chunks FROM sift_namespaces WHERE tenant = ${tenant} AND namespace = ${namespace}`;
  const [gone] = await tx<{ chunks: number; length: string; terms: [string, number][] }[]>`
    WITH gone AS (
      DELETE FROM sift_chunks
      WHERE tenant = ${tenant} AND namespace = ${namespace}
        AND (doc_id = ANY (ARRAY(SELECT jsonb_array_elements_text(${docIds}::text::jsonb)))
          OR id = ANY (ARRAY(SELECT jsonb_array_elements_text(${
    JSON.stringify(plan.chunkIds)
  }::text::jsonb))))
      RETURNING terms, length),
    lost AS (SELECT u.lexeme AS term, count(*)::int AS df
      FROM gone, unnest(gone.terms) u GROUP BY u.lexeme)
    SELECT (SELECT count(*)::int FROM gone) AS chunks,
      (SELECT coalesce(sum(length), 0)::bigint FROM gone) AS length,
      (SELECT coalesce(jsonb_agg(jsonb_build_array(term, df)), '[]'::jsonb) FROM lost) AS terms`;
  const remaining = Number(held!.chunks) - gone!.chunks;
  if (width !== undefined && remaining > 0 && held!.dims && held!.dims !== width) {
    throw new InvalidRequestError(
      `The index holds ${held!.dims}-dimensional vectors but a chunk has ${width}: ` +
        "re-ingest everything after changing the embedding model",
    );
  }
  for (let start = 0; start < plan.rows.length; start += INSERT_BATCH) {
    const rows = plan.rows.slice(start, start + INSERT_BATCH);
    await tx.unsafe(
      insertStatement(rows.length),
      rows.flatMap((row) => insertValues(tenant, namespace, row)) as never[],
    );
  }
  const delta = new Map(plan.added);
  for (const [term, df] of gone!.terms) delta.set(term, (delta.get(term) ?? 0) - df);
  const changes = [...delta].filter(([, df]) => df !== 0)
    .sort(([a], [b]) => byCodeUnit(a, b));
  if (changes.length) {
    const rows = JSON.stringify(changes.map(([term, df]) => ({ term, df })));
    await tx`INSERT INTO sift_terms (tenant, namespace, term, df)
      SELECT ${tenant}, ${namespace}, d.term, d.df
      FROM jsonb_to_recordset(${rows}::text::jsonb) AS d(term text, df integer)
      ORDER BY d.term COLLATE "C"
      ON CONFLICT (tenant, namespace, term) DO UPDATE SET df = sift_terms.df + excluded.df`;
  }
  const added = plan.rows.length - gone!.chunks;
  await tx`UPDATE sift_namespaces SET
      chunks = chunks + ${added},
      total_length = total_length - ${gone!.length} + ${plan.addedLength},
      dims = CASE WHEN chunks + ${added} <= 0 THEN NULL
        ELSE coalesce(${width ?? null}::int, dims) END
    WHERE tenant = ${tenant} AND namespace = ${namespace}`;
  return gone!.chunks;
}

/**
 * Documents hash to this many locks per namespace: a write holds at most
 * this many (Postgres's lock table has room for about 64 per connection),
 * and two writers of different documents share one only by chance.
 */
const DOCUMENT_LOCKS = 64;

/**
 * Takes the transaction-level locks of the documents written (each
 * document's of `DOCUMENT_LOCKS`, in ascending order, so two writers never
 * wait on each other in a circle). A writer of other documents of the
 * namespace mostly takes other locks.
 */
export async function lockDocuments(
  tx: TransactionSql,
  tenant: string,
  namespace: string,
  ids: readonly string[],
): Promise<void> {
  const docIds = JSON.stringify([...new Set(ids)]);
  await tx`SELECT pg_advisory_xact_lock(hashtextextended(
      format('%s/%s/%s', length(${tenant}::text), ${tenant}::text, ${namespace}::text), s.lock))
    FROM (SELECT DISTINCT abs(hashtext(d) % ${DOCUMENT_LOCKS}) AS lock
      FROM jsonb_array_elements_text(${docIds}::text::jsonb) AS d ORDER BY lock OFFSET 0) AS s`;
}

/** Strings in code-unit order (JavaScript's `<`), as the lock and term orders need one order. */
function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

import postgres, { type Sql } from "postgres";
import { InvalidRequestError, SiftError } from "../../errors.ts";
import {
  type ChunkMetadata,
  type DocumentPage,
  documentSummary,
  type IndexedChunk,
  resolvedVector,
  type SearchHit,
  type StoredChunk,
  type VectorIndex,
  type VectorQuery,
} from "../port.ts";
import { decodePostgresCursor, encodePostgresCursor } from "./cursor.ts";
import { IndexUnavailableError, RETRY_STATES, toIndexError } from "./errors.ts";
import { toJsonPathFilter } from "./filter.ts";
import { ensureVectorIndex, migrate } from "./schema.ts";
import { searchStatement } from "./search-sql.ts";
import { queryTerms } from "./terms.ts";
import { connectionLost, inTransaction } from "./transaction.ts";
import { writeInTransaction, writePlan } from "./write.ts";

/** How long one call may take, connecting included, before it is a 503 (`DATABASE_TIMEOUT_MS`). */
export const POSTGRES_DEFAULT_TIMEOUT_MS = 30_000;
/** Attempts of a write transaction that lost a serialization or deadlock race. */
const WRITE_ATTEMPTS = 3;

/**
 * What outlives one `PostgresIndex` in a process or isolate: which databases
 * have been migrated and which vector widths have their HNSW index. Only
 * what is done is shared: on Workers a client (and any promise of its I/O)
 * belongs to one request, so work in flight never is.
 */
export class PostgresSchemaGate {
  readonly #migrated = new Set<string>();
  readonly #widths = new Set<string>();

  async ready(url: string, run: () => Promise<unknown>): Promise<void> {
    if (this.#migrated.has(url)) return;
    await run();
    this.#migrated.add(url);
  }

  async vectorIndex(url: string, width: number, make: () => Promise<void>): Promise<void> {
    const key = `${width} ${url}`;
    if (this.#widths.has(key)) return;
    await make();
    this.#widths.add(key);
  }
}

export type PostgresIndexOptions = {
  url: string;
  /** Connections in the pool (per process; per request on Workers). */
  max?: number;
  timeoutMs?: number;
  /** Shared across instances of one process or isolate; a fresh one otherwise. */
  gate?: PostgresSchemaGate;
  /** Seconds an unused connection stays open (30; a Worker's client lives for one request). */
  idleTimeoutSeconds?: number;
};

/**
 * `VectorIndex` on Postgres with pgvector: every chunk a row, its vector
 * under an HNSW index (cosine) and its terms in a `tsvector` under GIN.
 * Sparse scores are the embedded index's BM25 (same terms, same formula;
 * the statistics are kept in the database with each write), and hybrid fuses
 * both with RRF in one statement, so any number of sift processes can share
 * one database and rank alike. Tenants and namespaces are columns on every
 * row and in every statement. Constructing it does no I/O; the schema is
 * made or migrated by the first call.
 *
 * @example
 * const index = new PostgresIndex({ url: "postgres://sift@db.example.com/sift" });
 * await index.query({ text: "bert", vector, mode: "hybrid", topK: 5, namespace: "default" });
 */
export class PostgresIndex implements VectorIndex {
  readonly name = "postgres";
  readonly #url: string;
  readonly #max: number;
  readonly #timeoutMs: number;
  readonly #gate: PostgresSchemaGate;
  readonly #idleTimeoutSeconds: number;
  #sql: Sql | undefined;
  /** This instance's migration in flight, so concurrent first calls run it once. */
  #migrating: Promise<void> | undefined;

  constructor(options: PostgresIndexOptions) {
    this.#url = options.url;
    this.#max = options.max ?? 8;
    this.#timeoutMs = options.timeoutMs ?? POSTGRES_DEFAULT_TIMEOUT_MS;
    this.#gate = options.gate ?? new PostgresSchemaGate();
    this.#idleTimeoutSeconds = options.idleTimeoutSeconds ?? 30;
  }

  /** Creates or migrates the schema now (at start), instead of at the first call. */
  async prepare(): Promise<void> {
    await this.#call(async () => {});
  }

  /** Closes the connections (a Worker's request is over; a process stops). */
  async close(): Promise<void> {
    const sql = this.#sql;
    this.#sql = undefined;
    await sql?.end({ timeout: 5 });
  }

  async upsert(chunks: IndexedChunk[], options: { namespace: string }): Promise<void> {
    await this.replaceDocuments([], chunks, options);
  }

  /**
   * One transaction: the namespace's row is locked first (writers of one
   * namespace take turns, so term rows never deadlock), the documents'
   * chunks and any chunk with a written id go, the new chunks come in, and
   * the BM25 statistics move by the difference. Resolves once committed.
   */
  async replaceDocuments(
    docIds: string[],
    chunks: IndexedChunk[],
    options: { namespace: string },
  ): Promise<void> {
    await this.#write(docIds, chunks, options.namespace);
  }

  async deleteDocument(docId: string, options: { namespace: string }): Promise<number> {
    if (docId === "") return 0;
    return await this.#write([docId], [], options.namespace);
  }

  async count(options: { namespace: string }): Promise<number> {
    const [tenant, namespace] = splitNamespace(options.namespace);
    const rows = await this.#call((sql) =>
      sql<{ chunks: string }[]>`SELECT chunks FROM sift_namespaces
        WHERE tenant = ${tenant} AND namespace = ${namespace}`
    );
    return Number(rows[0]?.chunks ?? 0);
  }

  async listDocuments(
    options: { namespace: string; limit: number; cursor?: string | undefined },
  ): Promise<DocumentPage> {
    const after = options.cursor === undefined ? "" : decodePostgresCursor(options.cursor);
    const [tenant, namespace] = splitNamespace(options.namespace);
    const limit = Math.max(0, Math.floor(options.limit));
    const rows = await this.#call((sql) =>
      sql<{ doc_id: string; chunks: string; metadata: ChunkMetadata }[]>`
        SELECT doc_id, count(*) AS chunks,
          (array_agg(metadata ORDER BY chunk_index))[1] AS metadata
        FROM sift_chunks
        WHERE tenant = ${tenant} AND namespace = ${namespace} AND doc_id > ${after}
        GROUP BY doc_id ORDER BY doc_id LIMIT ${limit + 1}`
    );
    const page = rows.slice(0, limit);
    const documents = page.map((row) =>
      documentSummary(row.doc_id, row.metadata, Number(row.chunks))
    );
    return rows.length > page.length && page.length
      ? { documents, cursor: encodePostgresCursor(page[page.length - 1]!.doc_id) }
      : { documents };
  }

  async getDocument(docId: string, options: { namespace: string }): Promise<StoredChunk[]> {
    const [tenant, namespace] = splitNamespace(options.namespace);
    return await this.#call((sql) =>
      sql<StoredChunk[]>`SELECT id, text, metadata FROM sift_chunks
        WHERE tenant = ${tenant} AND namespace = ${namespace} AND doc_id = ${docId}
        ORDER BY chunk_index`
    ).then((rows) => rows.map(({ id, text, metadata }) => ({ id, text, metadata })));
  }

  async query(asked: VectorQuery): Promise<SearchHit[]> {
    const query = await resolvedVector(asked);
    if (query.topK <= 0) return [];
    if (query.mode !== "sparse" && !query.vector) {
      throw new InvalidRequestError("vector: required for dense and hybrid search");
    }
    const terms = query.mode === "dense" ? [] : queryTerms(query.text);
    if (query.mode === "sparse" && terms.length === 0) return [];
    const [tenant, namespace] = splitNamespace(query.namespace);
    const statement = searchStatement({
      mode: query.mode,
      tenant,
      namespace,
      topK: query.topK,
      terms,
      ...(query.vector ? { vector: query.vector } : {}),
      filter: toJsonPathFilter(query.filter),
    });
    // One round trip: `sift_dense` refuses a vector of the wrong width itself.
    const rows = await this.#call(async (sql) => {
      return await sql.unsafe<
        { id: string; doc_id: string; text: string; metadata: ChunkMetadata; score: number }[]
      >(statement.text, statement.values as never[]);
    });
    return rows.map((row) => ({
      id: row.id,
      doc_id: row.doc_id,
      text: row.text,
      score: Number(row.score),
      metadata: row.metadata,
    }));
  }

  async #write(docIds: string[], chunks: IndexedChunk[], fullNamespace: string): Promise<number> {
    const [tenant, namespace] = splitNamespace(fullNamespace);
    const plan = writePlan(tenant, namespace, docIds, chunks);
    return await this.#call(async (sql) => {
      const width = plan.width;
      if (width !== undefined) {
        await this.#gate.vectorIndex(this.#url, width, () => ensureVectorIndex(sql, width));
      }
      for (let attempt = 1;; attempt++) {
        try {
          return await inTransaction(sql, (tx) => writeInTransaction(tx, plan));
        } catch (error) {
          const code = (error as { code?: unknown }).code;
          if (attempt < WRITE_ATTEMPTS && typeof code === "string" && RETRY_STATES.has(code)) {
            continue;
          }
          throw error;
        }
      }
    });
  }

  /**
   * Runs `work` once the schema is ready, under the call's deadline. A call
   * that outlives it, or whose connection went away, closes the pool (a hung
   * server keeps its connections busy forever) and is a 503; the next call
   * connects afresh.
   */
  async #call<T>(work: (sql: Sql) => Promise<T>): Promise<T> {
    const sql = this.#sql ??= this.#connect();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        if (this.#sql === sql) this.#sql = undefined;
        sql.end({ timeout: 0 }).catch(() => {});
        reject(new IndexUnavailableError(`no answer within ${this.#timeoutMs / 1000} s`));
      }, this.#timeoutMs);
    });
    try {
      return await Promise.race([
        (async () => {
          await this.#ready(sql);
          return await work(sql);
        })(),
        deadline,
      ]);
    } catch (error) {
      if (error instanceof SiftError) throw error;
      // A connection postgres.js saw die can keep a write it never flushed, and then never
      // flushes its next start-up either (porsager/postgres#1215): the next call gets a new
      // pool, and this one closes once its other calls are done.
      if (connectionLost(error) && this.#sql === sql) {
        this.#sql = undefined;
        sql.end({ timeout: 5 }).catch(() => {});
      }
      throw toIndexError(error);
    } finally {
      clearTimeout(timer);
    }
  }

  #ready(sql: Sql): Promise<void> {
    const migrating = this.#migrating ??= this.#gate.ready(this.#url, () => migrate(sql));
    // A failure (database down, no pgvector) is tried again by the next call.
    migrating.catch(() => {
      if (this.#migrating === migrating) this.#migrating = undefined;
    });
    return migrating;
  }

  #connect(): Sql {
    return postgres(this.#url, {
      max: this.#max,
      connect_timeout: Math.max(1, Math.ceil(this.#timeoutMs / 3000)),
      idle_timeout: this.#idleTimeoutSeconds,
      max_lifetime: 30 * 60,
      onnotice: () => {},
      connection: { application_name: "sift" },
    });
  }
}

/** `acme:default` → tenant `acme`, namespace `default`; a bare key's namespace has tenant "". */
function splitNamespace(full: string): [string, string] {
  const at = full.indexOf(":");
  return at < 0 ? ["", full] : [full.slice(0, at), full.slice(at + 1)];
}

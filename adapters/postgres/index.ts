import postgres, { type Sql } from "postgres";
import { reciprocalRankFusion } from "../../lib/vector-index/mod.ts";
import { InvalidRequestError, SiftError } from "../../shared/errors.ts";
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
} from "../../shared/vector/port.ts";
import { decodePostgresCursor, encodePostgresCursor } from "./cursor.ts";
import {
  IndexTimeoutError,
  refusedStartupParameter,
  RETRY_STATES,
  type StatementBounds,
  toIndexError,
} from "./errors.ts";
import { toJsonPathFilter } from "./filter.ts";
import { ensureVectorIndex, migrate } from "./schema.ts";
import { searchStatement } from "./search-sql.ts";
import { queryTerms } from "./terms.ts";
import { connectionLost, inTransaction } from "./transaction.ts";
import { writeInTransaction, writePlan } from "./write.ts";

/** How long one call may take, connecting included, before it is a 503 (`DATABASE_TIMEOUT_MS`). */
export const POSTGRES_DEFAULT_TIMEOUT_MS = 30_000;
/**
 * Past its deadline, how much longer a call's statement may take to end
 * before its connection counts as hung: the server cancels it at
 * `statement_timeout`, so only a connection that stopped answering gets here.
 */
const HUNG_AFTER_MS = 1_000;
/** Attempts of a write transaction that lost a serialization or deadlock race. */
const WRITE_ATTEMPTS = 3;
/** A lost race, or a chunk id another writer gave its own document meanwhile (write.ts). */
const WRITE_RETRY_STATES = new Set([...RETRY_STATES, "23505"]);

/**
 * What outlives one `PostgresIndex` in a process or isolate: which databases
 * have been migrated and which vector widths have their HNSW index. Only
 * what is done is shared: on Workers a client (and any promise of its I/O)
 * belongs to one request, so work in flight never is.
 */
export class PostgresSchemaGate {
  readonly #migrated = new Set<string>();
  readonly #widths = new Set<string>();
  /** Databases (behind PgBouncer, say) that refused `statement_timeout` as a startup parameter. */
  readonly #refuseBounds = new Set<string>();

  /** Whether sessions on `url` may carry `statement_timeout` and `lock_timeout` from the start. */
  takesBounds(url: string): boolean {
    return !this.#refuseBounds.has(url);
  }

  refusedBounds(url: string): void {
    this.#refuseBounds.add(url);
  }

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
 * the statistics are kept in the database with each write), and hybrid runs
 * both at once and fuses them with RRF as the embedded index does, so any number of sift processes can share
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
  /** `statement_timeout` and `lock_timeout` of every session. */
  readonly #bounds: StatementBounds;
  #sql: Sql | undefined;
  /** This instance's migration in flight, so concurrent first calls run it once. */
  #migrating: Promise<void> | undefined;

  constructor(options: PostgresIndexOptions) {
    this.#url = options.url;
    this.#max = options.max ?? 8;
    this.#timeoutMs = options.timeoutMs ?? POSTGRES_DEFAULT_TIMEOUT_MS;
    this.#gate = options.gate ?? new PostgresSchemaGate();
    this.#idleTimeoutSeconds = options.idleTimeoutSeconds ?? 30;
    this.#bounds = statementBounds(this.#timeoutMs);
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
   * One transaction (write.ts): the documents written are locked (writers of
   * other documents go on meanwhile), the documents' chunks and any chunk
   * with a written id go, the new chunks come in, and the BM25 statistics
   * move by the difference. Resolves once committed.
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
        {
          side: "dense" | "sparse";
          id: string;
          doc_id: string;
          text: string;
          metadata: ChunkMetadata;
          score: number;
        }[]
      >(statement.text, statement.values as never[]);
    });
    const hits = rows.map((row) => ({
      id: row.id,
      doc_id: row.doc_id,
      text: row.text,
      score: Number(row.score),
      metadata: row.metadata,
    }));
    if (query.mode !== "hybrid") return hits;
    // The rows come by side, each side best first.
    const ranking = (side: string) => rows.flatMap((row) => row.side === side ? [row.id] : []);
    const byId = new Map(hits.map((hit) => [hit.id, hit]));
    return reciprocalRankFusion([ranking("dense"), ranking("sparse")])
      .slice(0, query.topK)
      .map((item) => ({ ...byId.get(item.id)!, score: item.rrf_score }));
  }

  async #write(docIds: string[], chunks: IndexedChunk[], fullNamespace: string): Promise<number> {
    const [tenant, namespace] = splitNamespace(fullNamespace);
    const plan = writePlan(tenant, namespace, docIds, chunks);
    return await this.#call(async (sql, signal) => {
      const width = plan.width;
      if (width !== undefined) {
        await this.#gate.vectorIndex(this.#url, width, () => ensureVectorIndex(sql, width));
      }
      for (let attempt = 1;; attempt++) {
        try {
          return await inTransaction(sql, (tx) => writeInTransaction(tx, plan), { signal });
        } catch (error) {
          const code = (error as { code?: unknown }).code;
          if (
            attempt < WRITE_ATTEMPTS && typeof code === "string" && WRITE_RETRY_STATES.has(code) &&
            !signal.aborted
          ) {
            continue;
          }
          throw error;
        }
      }
    });
  }

  /**
   * Runs `work` once the schema is ready, under the call's deadline
   * (`DATABASE_TIMEOUT_MS`). The server bounds each statement itself
   * (`statement_timeout`, `lock_timeout`): a slow one fails its own call
   * with a 503 and its connection stays in the pool, so other calls never
   * notice. Past the deadline the call is a 503 at once and `work` gets its
   * signal (a transaction then rolls back rather than commit). A connection
   * that still has not answered a statement later is hung, and only then is
   * the pool retired; one postgres.js saw die is retired at once.
   */
  async #call<T>(work: (sql: Sql, signal: AbortSignal) => Promise<T>): Promise<T> {
    const bounded = this.#gate.takesBounds(this.#url);
    const sql = this.#sql ??= this.#connect(bounded);
    const deadline = new AbortController();
    const running = (async () => {
      await this.#ready(sql);
      return await work(sql, deadline.signal);
    })();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new IndexTimeoutError(this.#timeoutMs, "to answer (DATABASE_TIMEOUT_MS)");
        deadline.abort(error);
        this.#retireIfHung(sql, running);
        reject(error);
      }, this.#timeoutMs);
    });
    try {
      return await Promise.race([running, late]);
    } catch (error) {
      const cause = error instanceof SiftError ? error.cause : error;
      if (bounded && refusedStartupParameter(cause)) {
        // A pooler that takes no session settings at connect: sessions go without them, and
        // only the deadline above bounds a statement (docs/postgres.md, Timeouts).
        if (this.#gate.takesBounds(this.#url)) {
          this.#gate.refusedBounds(this.#url);
          console.error(
            "sift: the database refuses statement_timeout at connect (PgBouncer?); " +
              "sessions go without it, bounded by DATABASE_TIMEOUT_MS alone",
          );
        }
        this.#retire(sql, 5);
        return await this.#call(work);
      }
      if (error instanceof SiftError) throw error;
      // A connection postgres.js saw die can keep a write it never flushed, and then never
      // flushes its next start-up either (porsager/postgres#1215): the next call gets a new
      // pool, and this one closes once its other calls are done.
      if (connectionLost(error)) this.#retire(sql, 5);
      throw toIndexError(error, this.#bounds);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * A call past its deadline: the server ends its statement by
   * `statement_timeout`, and its connection is back in the pool. If `running`
   * has still not settled `statement_timeout` and a second later, its
   * connection is hung (the server or the network stopped answering), or if
   * it ends with the connection lost: the pool is retired, so no new call
   * waits on it.
   */
  #retireIfHung(sql: Sql, running: Promise<unknown>): void {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const hung = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(true), this.#timeoutMs + HUNG_AFTER_MS);
    });
    const broken = running.then(() => false, (error: unknown) => connectionLost(error));
    Promise.race([broken, hung]).then((retire) => {
      clearTimeout(timer);
      if (retire) this.#retire(sql, (this.#timeoutMs + HUNG_AFTER_MS) / 1000);
    });
  }

  /**
   * New calls get a new pool; this one closes once the calls in flight on
   * its other connections are done (each within its own deadline), and is
   * destroyed `seconds` later at the latest.
   */
  #retire(sql: Sql, seconds: number): void {
    if (this.#sql === sql) this.#sql = undefined;
    sql.end({ timeout: seconds }).catch(() => {});
  }

  #ready(sql: Sql): Promise<void> {
    const migrating = this.#migrating ??= this.#gate.ready(this.#url, () => migrate(sql));
    // A failure (database down, no pgvector) is tried again by the next call.
    migrating.catch(() => {
      if (this.#migrating === migrating) this.#migrating = undefined;
    });
    return migrating;
  }

  #connect(bounded: boolean): Sql {
    return postgres(this.#url, {
      max: this.#max,
      connect_timeout: Math.max(1, Math.ceil(this.#timeoutMs / 3000)),
      idle_timeout: this.#idleTimeoutSeconds,
      max_lifetime: 30 * 60,
      onnotice: () => {},
      // Startup parameters: every statement of every session is bounded, with no round trip.
      connection: {
        application_name: "sift",
        ...(bounded
          ? { statement_timeout: this.#bounds.statementMs, lock_timeout: this.#bounds.lockMs }
          : {}),
      },
    });
  }
}

/**
 * `statement_timeout` is the call's deadline; `lock_timeout` half of it, so a
 * writer waiting its turn on a document gives up first and says so.
 */
export function statementBounds(timeoutMs: number): StatementBounds {
  return { statementMs: timeoutMs, lockMs: Math.max(1, Math.floor(timeoutMs / 2)) };
}

/** `acme:default` → tenant `acme`, namespace `default`; a bare key's namespace has tenant "". */
function splitNamespace(full: string): [string, string] {
  const at = full.indexOf(":");
  return at < 0 ? ["", full] : [full.slice(0, at), full.slice(at + 1)];
}

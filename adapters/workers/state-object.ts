import { InvalidRequestError, NotFoundError, toErrorBody } from "../../shared/errors.ts";
import { validate } from "../../shared/http/validate.ts";
import { LocalIndex } from "../vector-index/local.ts";
import type { IndexedChunk } from "../../shared/vector/port.ts";
import type { DurableObjectState, SqlStorage } from "./durable-object.ts";
import { bodies, type StateOp, storedChunk } from "./state-protocol.ts";

/**
 * The cache keeps at most this many entries. Keys include query and prompt
 * hashes, so the key space never stops growing, and a TTL only removes an entry
 * that someone reads again: without a bound the object's storage (capped, and
 * billed) would fill with entries nobody asks for.
 */
const MAX_CACHE_ENTRIES = 20_000;

/** Chunks read from SQLite per step when the index is loaded. */
const LOAD_PAGE_ROWS = 500;

const TABLES = `
  CREATE TABLE IF NOT EXISTS chunks (
    namespace TEXT NOT NULL,
    id TEXT NOT NULL,
    doc_id TEXT NOT NULL,
    text TEXT NOT NULL,
    metadata TEXT NOT NULL,
    vector BLOB NOT NULL,
    PRIMARY KEY (namespace, id)
  );
  CREATE INDEX IF NOT EXISTS chunks_by_document ON chunks (namespace, doc_id);
  CREATE TABLE IF NOT EXISTS cache (key TEXT PRIMARY KEY, value TEXT NOT NULL, expires_at INTEGER);
  CREATE TABLE IF NOT EXISTS records (key TEXT PRIMARY KEY, value TEXT NOT NULL, expires_at INTEGER);
`;

/**
 * The Durable Object that holds sift's embedded index and cache for every
 * Worker bound to it (in SQLite storage, so they outlive isolates and deploys).
 * SQLite is the truth; a decoded `LocalIndex` is kept in memory between
 * requests so a search does not reload every vector. Workers reach it through
 * `DurableObjectIndex` and `DurableObjectCache` (state-client.ts).
 */
export class SiftState {
  readonly #sql: SqlStorage;
  readonly #transaction: <T>(fn: () => T) => T;
  #index: Promise<LocalIndex> | undefined;

  constructor(ctx: DurableObjectState, _env: unknown) {
    this.#sql = ctx.storage.sql;
    this.#transaction = (fn) => ctx.storage.transactionSync(fn);
    // exec is synchronous, but a failed set-up inside blockConcurrencyWhile
    // resets the object instead of letting requests meet missing tables.
    ctx.blockConcurrencyWhile(() => {
      this.#sql.exec(TABLES);
      return Promise.resolve();
    });
  }

  async fetch(request: Request): Promise<Response> {
    try {
      const body = await request.json().catch(() => {
        throw new InvalidRequestError("body: must be valid JSON");
      });
      return Response.json(await this.#run(new URL(request.url).pathname.slice(1), body));
    } catch (error) {
      const { status, body } = toErrorBody(error);
      if (status >= 500) console.error("SiftState:", error);
      return Response.json(body, { status });
    }
  }

  async #run(op: string, body: unknown): Promise<unknown> {
    switch (op as StateOp) {
      case "index.upsert": {
        const { namespace, chunks } = validate(bodies.upsert, body);
        await this.#upsert(namespace, chunks);
        return {};
      }
      case "index.replaceDocuments": {
        const { namespace, docIds, chunks } = validate(bodies.replace, body);
        await this.#replace(namespace, docIds, chunks);
        return {};
      }
      case "index.query":
        return { hits: await (await this.#loadIndex()).query(validate(bodies.query, body).query) };
      case "index.deleteDocument": {
        const { namespace, docId } = validate(bodies.document, body);
        return { deleted: await this.#deleteDocument(namespace, docId) };
      }
      case "index.count":
        return { count: await (await this.#loadIndex()).count(validate(bodies.namespace, body)) };
      case "index.listDocuments":
        return await (await this.#loadIndex()).listDocuments(validate(bodies.documents, body));
      case "index.getDocument": {
        const { namespace, docId } = validate(bodies.document, body);
        return { chunks: await (await this.#loadIndex()).getDocument(docId, { namespace }) };
      }
      case "cache.get":
        return this.#cacheGet(validate(bodies.key, body).key);
      case "cache.set": {
        const { key, value, ttlSeconds } = validate(bodies.set, body);
        this.#cacheSet(key, value, ttlSeconds);
        return {};
      }
      case "cache.delete":
        this.#sql.exec("DELETE FROM cache WHERE key = ?", validate(bodies.key, body).key);
        return {};
      case "records.get":
        return this.#recordGet(validate(bodies.key, body).key);
      case "records.put": {
        const { records, ifAbsent } = validate(bodies.records, body);
        return { written: this.#recordsPut(records, ifAbsent) };
      }
      default:
        throw new NotFoundError(`Unknown state operation: ${op}`);
    }
  }

  /** Storage first, in one transaction; memory only once storage has it. */
  async #upsert(namespace: string, chunks: IndexedChunk[]): Promise<void> {
    this.#transaction(() => this.#insert(namespace, chunks));
    await this.#applyToMemory((index) => index.upsert(chunks, { namespace }));
  }

  /** The documents' old rows and their new ones in one transaction: old or new, never a mix. */
  async #replace(namespace: string, docIds: string[], chunks: IndexedChunk[]): Promise<void> {
    this.#transaction(() => {
      for (const docId of docIds) {
        this.#sql.exec("DELETE FROM chunks WHERE namespace = ? AND doc_id = ?", namespace, docId);
      }
      this.#insert(namespace, chunks);
    });
    await this.#applyToMemory((index) => index.replaceDocuments(docIds, chunks, { namespace }));
  }

  #insert(namespace: string, chunks: IndexedChunk[]): void {
    for (const { id, text, vector, metadata } of chunks) {
      this.#sql.exec(
        "INSERT OR REPLACE INTO chunks (namespace, id, doc_id, text, metadata, vector) " +
          "VALUES (?, ?, ?, ?, ?, ?)",
        namespace,
        id,
        metadata.doc_id,
        text,
        JSON.stringify(metadata),
        Float32Array.from(vector).buffer,
      );
    }
  }

  async #deleteDocument(namespace: string, docId: string): Promise<number> {
    const deleted = this.#sql.exec(
      "DELETE FROM chunks WHERE namespace = ? AND doc_id = ? RETURNING id",
      namespace,
      docId,
    ).toArray().length;
    await this.#applyToMemory((index) => index.deleteDocument(docId, { namespace }));
    return deleted;
  }

  /**
   * Updates the in-memory index if it was loaded (if not, the first search
   * loads what storage now holds). Should the update fail, the copy is dropped
   * and reloaded from storage, so memory never disagrees with SQLite.
   */
  async #applyToMemory(change: (index: LocalIndex) => Promise<unknown>): Promise<void> {
    const loaded = this.#index;
    if (!loaded) return;
    try {
      await change(await loaded);
    } catch (error) {
      if (this.#index === loaded) this.#index = undefined;
      throw error;
    }
  }

  #loadIndex(): Promise<LocalIndex> {
    const loading = this.#index ??= (async () => {
      const index = new LocalIndex();
      // Page by page along the primary key: the rows and their vectors as JS arrays
      // (12 KB a 1,536-d chunk) exist for one page at a time, not for every chunk at
      // once, which under the 128 MB limit was the real bound on the object's size.
      let after: [string, string] = ["", ""];
      for (;;) {
        const rows = this.#sql.exec(
          "SELECT namespace, id, text, metadata, vector FROM chunks " +
            "WHERE (namespace, id) > (?, ?) ORDER BY namespace, id LIMIT ?",
          ...after,
          LOAD_PAGE_ROWS,
        ).toArray();
        if (rows.length === 0) break;
        const byNamespace = new Map<string, IndexedChunk[]>();
        for (const row of rows) {
          const { namespace, ...chunk } = storedChunk.parse(row);
          const chunks = byNamespace.get(namespace) ?? [];
          if (chunks.push(chunk) === 1) byNamespace.set(namespace, chunks);
          after = [namespace, chunk.id];
        }
        for (const [namespace, chunks] of byNamespace) await index.upsert(chunks, { namespace });
        if (rows.length < LOAD_PAGE_ROWS) break;
      }
      return index;
    })();
    // A failed load is not cached: the next request tries again.
    loading.catch(() => {
      if (this.#index === loading) this.#index = undefined;
    });
    return loading;
  }

  #cacheGet(key: string): { hit: false } | { hit: true; value: unknown } {
    const row = this.#sql.exec<{ value: string; expires_at: number | null }>(
      "SELECT value, expires_at FROM cache WHERE key = ?",
      key,
    ).toArray()[0];
    if (!row) return { hit: false };
    if (row.expires_at !== null && row.expires_at <= Date.now()) {
      this.#sql.exec("DELETE FROM cache WHERE key = ?", key);
      return { hit: false };
    }
    return { hit: true, value: JSON.parse(row.value) };
  }

  #cacheSet(key: string, value: unknown, ttlSeconds: number | undefined): void {
    const expiresAt = ttlSeconds === undefined ? null : Date.now() + ttlSeconds * 1000;
    this.#transaction(() => {
      const { rowid } = this.#sql.exec<{ rowid: number }>(
        "INSERT OR REPLACE INTO cache (key, value, expires_at) VALUES (?, ?, ?) RETURNING rowid",
        key,
        JSON.stringify(value),
        expiresAt,
      ).one();
      // REPLACE gives a rewritten key a new rowid above every other, so the
      // newest MAX_CACHE_ENTRIES writes are exactly the rows above this one:
      // eviction costs only the rows it removes.
      this.#sql.exec("DELETE FROM cache WHERE rowid <= ?", rowid - MAX_CACHE_ENTRIES);
    });
  }

  /** Records (jobs) are never evicted, unlike cache entries: they go only when they expire. */
  #recordGet(key: string): { hit: false } | { hit: true; value: unknown } {
    const row = this.#sql.exec<{ value: string; expires_at: number | null }>(
      "SELECT value, expires_at FROM records WHERE key = ?",
      key,
    ).toArray()[0];
    if (!row || (row.expires_at !== null && row.expires_at <= Date.now())) return { hit: false };
    return { hit: true, value: JSON.parse(row.value) };
  }

  /** All of `records` in one transaction, or none when `ifAbsent` names a live record. */
  #recordsPut(
    records: { key: string; value: unknown; ttlSeconds?: number }[],
    ifAbsent: string | undefined,
  ): boolean {
    return this.#transaction(() => {
      const now = Date.now();
      if (ifAbsent !== undefined && this.#recordGet(ifAbsent).hit) return false;
      this.#sql.exec("DELETE FROM records WHERE expires_at IS NOT NULL AND expires_at <= ?", now);
      for (const { key, value, ttlSeconds } of records) {
        this.#sql.exec(
          "INSERT OR REPLACE INTO records (key, value, expires_at) VALUES (?, ?, ?)",
          key,
          JSON.stringify(value),
          ttlSeconds === undefined ? null : now + ttlSeconds * 1000,
        );
      }
      return true;
    });
  }
}

import { z } from "zod";
import type { CacheStore } from "../../shared/cache/port.ts";
import { InvalidRequestError, SiftError } from "../../shared/errors.ts";
import {
  type DocumentPage,
  type IndexedChunk,
  resolvedVector,
  type SearchHit,
  type StoredChunk,
  type VectorIndex,
  type VectorQuery,
} from "../../shared/vector/port.ts";
import type { DurableObjectNamespace } from "./durable-object.ts";
import type { StateOp } from "./state-protocol.ts";

/** Every Worker asks for the object by this name, so they all reach the same one. */
const OBJECT_NAME = "sift";
const DEFAULT_TIMEOUT_MS = 10_000;

/** The state object did not answer, or answered with something unusable. */
export class StateUnavailableError extends SiftError {
  override name = "StateUnavailableError";
  constructor(options: { cause?: unknown } = {}) {
    super("upstream_error", 503, "The shared state object is unavailable", {
      ...options,
      isRetryable: true,
    });
  }
}

const errorReply = z.object({ error: z.object({ message: z.string() }) });
const empty = z.object({});
const metadata = z.looseObject({ doc_id: z.string(), chunk_index: z.number() });
const replies = {
  hits: z.object({
    hits: z.array(
      z.object({
        id: z.string(),
        doc_id: z.string(),
        text: z.string(),
        score: z.number(),
        metadata,
      }),
    ),
  }),
  deleted: z.object({ deleted: z.number() }),
  written: z.object({ written: z.boolean() }),
  count: z.object({ count: z.number() }),
  documents: z.object({
    documents: z.array(z.object({
      id: z.string(),
      title: z.string().exactOptional(),
      source: z.string().exactOptional(),
      chunks: z.number(),
      ingested_at: z.string().exactOptional(),
    })),
    cursor: z.string().exactOptional(),
  }),
  chunks: z.object({
    chunks: z.array(z.object({ id: z.string(), text: z.string(), metadata })),
  }),
  cached: z.discriminatedUnion("hit", [
    z.object({ hit: z.literal(false) }),
    z.object({ hit: z.literal(true), value: z.unknown() }),
  ]),
};

/** Sends one operation to the shared `SiftState` object and validates its reply. */
class StateChannel {
  readonly #namespace: DurableObjectNamespace;
  readonly #timeoutMs: number;

  constructor(namespace: DurableObjectNamespace, options: { timeoutMs?: number }) {
    this.#namespace = namespace;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  async call<T>(op: StateOp, body: unknown, reply: z.ZodType<T>): Promise<T> {
    let status: number;
    let json: unknown;
    try {
      // A stub per call: it is cheap, and one made during another request may
      // not be usable from this one (the adapters can outlive a request).
      const stub = this.#namespace.get(this.#namespace.idFromName(OBJECT_NAME));
      const response = await stub.fetch(
        new Request(`https://state/${op}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(this.#timeoutMs),
        }),
      );
      status = response.status;
      json = await response.json();
    } catch (error) {
      throw new StateUnavailableError({ cause: error });
    }
    if (status === 400) {
      // The object's own validation message names the field; it holds no internals.
      const parsed = errorReply.safeParse(json);
      throw new InvalidRequestError(parsed.success ? parsed.data.error.message : "Invalid request");
    }
    const parsed = reply.safeParse(json);
    if (status !== 200 || !parsed.success) {
      throw new StateUnavailableError({
        cause: new Error(`${op}: HTTP ${status}`, { cause: parsed.error }),
      });
    }
    return parsed.data;
  }
}

/**
 * The embedded index, kept by the shared `SiftState` Durable Object so every
 * Worker bound to it searches the same chunks.
 *
 * @example
 * const index = new DurableObjectIndex(env.STATE);
 * await index.upsert(chunks, { namespace: "default" });
 */
export class DurableObjectIndex implements VectorIndex {
  readonly name = "durable-object";
  readonly #state: StateChannel;

  constructor(namespace: DurableObjectNamespace, options: { timeoutMs?: number } = {}) {
    this.#state = new StateChannel(namespace, options);
  }

  async upsert(chunks: IndexedChunk[], options: { namespace: string }): Promise<void> {
    await this.#state.call("index.upsert", { namespace: options.namespace, chunks }, empty);
  }

  async replaceDocuments(
    docIds: string[],
    chunks: IndexedChunk[],
    options: { namespace: string },
  ): Promise<void> {
    const body = { namespace: options.namespace, docIds, chunks };
    await this.#state.call("index.replaceDocuments", body, empty);
  }

  async query(asked: VectorQuery): Promise<SearchHit[]> {
    const query = await resolvedVector(asked); // sent as JSON: the vector itself, not a promise
    return (await this.#state.call("index.query", { query }, replies.hits)).hits;
  }

  async deleteDocument(docId: string, options: { namespace: string }): Promise<number> {
    const body = { namespace: options.namespace, docId };
    return (await this.#state.call("index.deleteDocument", body, replies.deleted)).deleted;
  }

  async listDocuments(
    options: { namespace: string; limit: number; cursor?: string | undefined },
  ): Promise<DocumentPage> {
    const body = {
      namespace: options.namespace,
      limit: options.limit,
      ...(options.cursor === undefined ? {} : { cursor: options.cursor }),
    };
    return await this.#state.call("index.listDocuments", body, replies.documents);
  }

  async getDocument(docId: string, options: { namespace: string }): Promise<StoredChunk[]> {
    const body = { namespace: options.namespace, docId };
    return (await this.#state.call("index.getDocument", body, replies.chunks)).chunks;
  }

  async count(options: { namespace: string }): Promise<number> {
    const body = { namespace: options.namespace };
    return (await this.#state.call("index.count", body, replies.count)).count;
  }
}

/** The cache, kept by the shared `SiftState` Durable Object (SQLite, TTL, bounded). */
export class DurableObjectCache implements CacheStore {
  readonly name = "durable-object";
  readonly #state: StateChannel;

  constructor(namespace: DurableObjectNamespace, options: { timeoutMs?: number } = {}) {
    this.#state = new StateChannel(namespace, options);
  }

  async get<T>(key: string): Promise<T | undefined> {
    const cached = await this.#state.call("cache.get", { key }, replies.cached);
    return cached.hit ? cached.value as T : undefined;
  }

  async set<T>(key: string, value: T, options: { ttlSeconds?: number } = {}): Promise<void> {
    // undefined is not JSON; stored, it would read back as a miss anyway.
    if (value === undefined) return this.delete(key);
    await this.#state.call("cache.set", { key, value, ttlSeconds: options.ttlSeconds }, empty);
  }

  async delete(key: string): Promise<void> {
    await this.#state.call("cache.delete", { key }, empty);
  }
}

/** A record to write: JSON, kept until its TTL runs out. */
export type StateRecord = { key: string; value: unknown; ttlSeconds?: number };

/**
 * Durable records (jobs) in the shared `SiftState` object: never evicted,
 * written several at a time in one transaction.
 */
export class DurableObjectRecords {
  readonly #state: StateChannel;

  constructor(namespace: DurableObjectNamespace, options: { timeoutMs?: number } = {}) {
    this.#state = new StateChannel(namespace, options);
  }

  async get<T>(key: string): Promise<T | undefined> {
    const stored = await this.#state.call("records.get", { key }, replies.cached);
    return stored.hit ? stored.value as T : undefined;
  }

  /** Writes all of `records`, or nothing (false) when `options.ifAbsent` already exists. */
  async put(records: StateRecord[], options: { ifAbsent?: string } = {}): Promise<boolean> {
    const body = { records, ...(options.ifAbsent ? { ifAbsent: options.ifAbsent } : {}) };
    return (await this.#state.call("records.put", body, replies.written)).written;
  }
}

/**
 * Index and cache adapters for the `SiftState` object bound as `env[name]`, or
 * `undefined` when no such Durable Object binding exists.
 *
 * @example
 * const state = stateFromBindings(env); // env.STATE from [[durable_objects.bindings]]
 * const index = state?.index ?? new LocalIndex();
 */
export function stateFromBindings(
  env: Record<string, unknown>,
  name = "STATE",
): { index: VectorIndex; cache: CacheStore; records: DurableObjectRecords } | undefined {
  const binding = env[name];
  if (!isDurableObjectNamespace(binding)) return undefined;
  return {
    index: new DurableObjectIndex(binding),
    cache: new DurableObjectCache(binding),
    records: new DurableObjectRecords(binding),
  };
}

function isDurableObjectNamespace(value: unknown): value is DurableObjectNamespace {
  if (typeof value !== "object" || value === null) return false;
  const candidate = value as Partial<Record<"idFromName" | "get", unknown>>;
  return typeof candidate.idFromName === "function" && typeof candidate.get === "function";
}

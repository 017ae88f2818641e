import { FusionAlgorithm, Index, WeightingStrategy } from "@upstash/vector";
import { z } from "zod";
import { InvalidRequestError, SiftError, UpstreamError } from "../../shared/errors.ts";
import {
  type ChunkMetadata,
  type DocumentPage,
  type DocumentSummary,
  documentSummary,
  type IndexedChunk,
  resolvedVector,
  type ResolvedVectorQuery,
  type SearchHit,
  type StoredChunk,
  type VectorIndex,
  type VectorQuery,
} from "../../shared/vector/port.ts";
import { decodeUpstashCursor, encodeUpstashCursor } from "./vector-cursor.ts";
import { type SparseVector, sparseVector } from "../../shared/vector/sparse.ts";
import { searchableText } from "../../shared/vector/port.ts";
import { toUpstashFilter } from "./vector-filter.ts";

export { toUpstashFilter };

/** Upstash accepts at most 1000 vectors per upsert request. */
export const UPSTASH_MAX_UPSERT_BATCH = 1000;
/** Ids per range page and per delete request when removing a document. */
const UPSTASH_ID_PAGE = 1000;
const CHUNK_SUFFIX = /^\d+$/;
export const UPSTASH_DEFAULT_TIMEOUT_MS = 10_000;
/** Extra attempts after a network failure; the SDK never retries an HTTP error. */
export const UPSTASH_DEFAULT_RETRIES = 2;

export type UpstashVectorIndexOptions =
  & (
    | {
      url: string;
      token: string;
      /** Budget for one call, retries included. */
      timeoutMs?: number | undefined;
      retries?: number | undefined;
    }
    /** A ready client, e.g. one built with a custom `Requester`. */
    | { index: Index }
  )
  & {
    /** Vectors per upsert request, at most `UPSTASH_MAX_UPSERT_BATCH`. */
    upsertBatchSize?: number | undefined;
  };

type UpstashQuery = Parameters<Index["query"]>[0];
/**
 * One vector of a hybrid index. The SDK's upsert type has no `data` next to
 * vectors, but `/upsert` stores it and queries return it with `includeData`.
 */
type UpstashHybridVector = {
  id: string;
  vector: number[];
  sparseVector: SparseVector;
  metadata: Record<string, unknown>;
  data: string;
};

/** The SDK joins the namespace into the URL path unescaped. */
const UNSAFE_NAMESPACE = /[/?#%\\\s\p{Cc}]/u;

const hitSchema = z.object({
  id: z.union([z.string(), z.number()]),
  score: z.number(),
  data: z.string().optional(),
  metadata: z.looseObject({ doc_id: z.string(), chunk_index: z.number() }),
});

const storedSchema = z.object({
  id: z.union([z.string(), z.number()]),
  data: z.string().optional(),
  metadata: z.looseObject({ doc_id: z.string(), chunk_index: z.number() }),
});

const infoSchema = z.object({
  namespaces: z.record(
    z.string(),
    z.object({
      vectorCount: z.number(),
      pendingVectorCount: z.number().default(0),
    }),
  ),
});

/**
 * `VectorIndex` on an Upstash Vector HYBRID index (dense + sparse), so every
 * search mode works against one index. Sparse vectors come from `sparseVector`
 * on the chunk text; the chunk text rides along as the vector's `data`.
 * Constructing it does no I/O.
 *
 * @example
 * const index = new UpstashVectorIndex({ url: env.UPSTASH_VECTOR_REST_URL, token });
 * await index.query({ text: "bert", vector, mode: "hybrid", topK: 5, namespace: "default" });
 */
export class UpstashVectorIndex implements VectorIndex {
  readonly name = "upstash-vector";
  readonly #index: Index;
  readonly #upsertBatchSize: number;

  constructor(options: UpstashVectorIndexOptions) {
    this.#index = "index" in options ? options.index : new Index({
      url: options.url,
      token: options.token,
      enableTelemetry: false,
      retry: {
        retries: options.retries ?? UPSTASH_DEFAULT_RETRIES,
        backoff: (attempt) => 100 * 2 ** attempt * (0.5 + Math.random() / 2),
      },
      // A function, so each call gets a fresh deadline.
      signal: () => AbortSignal.timeout(options.timeoutMs ?? UPSTASH_DEFAULT_TIMEOUT_MS),
    });
    const batchSize = options.upsertBatchSize ?? UPSTASH_MAX_UPSERT_BATCH;
    if (
      !Number.isInteger(batchSize) || batchSize < 1 ||
      batchSize > UPSTASH_MAX_UPSERT_BATCH
    ) {
      throw new RangeError(
        `upsertBatchSize must be a whole number in [1, ${UPSTASH_MAX_UPSERT_BATCH}]`,
      );
    }
    this.#upsertBatchSize = batchSize;
  }

  async upsert(
    chunks: IndexedChunk[],
    options: { namespace: string },
  ): Promise<void> {
    const namespace = checkNamespace(options.namespace);
    // Sequential: a failed batch stops the rest instead of racing them.
    for (let start = 0; start < chunks.length; start += this.#upsertBatchSize) {
      const batch = chunks.slice(start, start + this.#upsertBatchSize)
        .map(toUpstashVector);
      await callVectorIndex(() => this.#index.upsert(batch, { namespace }));
    }
  }

  /**
   * Upstash has no transactions: the new chunks are written first (same ids
   * overwrite), then each document's chunks that are not among them go. A
   * crash in between leaves the new version plus stale tail chunks, never a
   * document with no chunks.
   */
  async replaceDocuments(
    docIds: string[],
    chunks: IndexedChunk[],
    options: { namespace: string },
  ): Promise<void> {
    const namespace = checkNamespace(options.namespace);
    await this.upsert(chunks, options);
    const kept = new Set(chunks.map((chunk) => chunk.id));
    for (const docId of docIds) {
      const stale = (await this.#chunkIds(docId, namespace)).filter((id) => !kept.has(id));
      for (let start = 0; start < stale.length; start += UPSTASH_ID_PAGE) {
        const page = stale.slice(start, start + UPSTASH_ID_PAGE);
        await callVectorIndex(() => this.#index.delete({ ids: page }, { namespace }));
      }
    }
  }

  async query(asked: VectorQuery): Promise<SearchHit[]> {
    const query = await resolvedVector(asked);
    const namespace = checkNamespace(query.namespace);
    if (!Number.isInteger(query.topK) || query.topK < 1) {
      throw new InvalidRequestError("topK: must be a positive whole number");
    }
    const filter = toUpstashFilter(query.filter);
    const request = toUpstashQuery(query, filter);
    if (!request) return [];
    const results = await callVectorIndex(() => this.#index.query(request, { namespace }));
    return results.map(toSearchHit);
  }

  async deleteDocument(
    docId: string,
    options: { namespace: string },
  ): Promise<number> {
    const namespace = checkNamespace(options.namespace);
    if (docId === "") throw new InvalidRequestError("doc_id: must not be empty");
    const ids = await this.#chunkIds(docId, namespace);
    let deleted = 0;
    for (let start = 0; start < ids.length; start += UPSTASH_ID_PAGE) {
      const page = ids.slice(start, start + UPSTASH_ID_PAGE);
      const reply = await callVectorIndex(() => this.#index.delete({ ids: page }, { namespace }));
      deleted += reply.deleted;
    }
    return deleted;
  }

  /**
   * The ids of a document's chunks, listed by id prefix. A bare prefix delete
   * of `bert#` would also take `bert#v2#0` (document `bert#v2`), and a filter
   * delete scans the whole namespace; listing walks the id index and keeps
   * only `${docId}#<digits>`.
   */
  async #chunkIds(docId: string, namespace: string): Promise<string[]> {
    const prefix = `${docId}#`;
    const ids: string[] = [];
    let cursor = "0";
    do {
      const page = await callVectorIndex(() =>
        this.#index.range(
          { cursor, limit: UPSTASH_ID_PAGE, prefix },
          { namespace },
        )
      );
      for (const { id } of page.vectors) {
        if (CHUNK_SUFFIX.test(id.slice(prefix.length))) ids.push(id);
      }
      if (page.vectors.length === 0) break;
      cursor = page.nextCursor;
    } while (cursor !== "");
    return ids;
  }

  /**
   * Documents in Upstash's id order: each document's first chunk (`<id>#0`)
   * stands for it while `range` walks the ids, and its chunks are counted by
   * id prefix.
   */
  async listDocuments(
    options: { namespace: string; limit: number; cursor?: string | undefined },
  ): Promise<DocumentPage> {
    const namespace = checkNamespace(options.namespace);
    let { range, skip } = options.cursor === undefined
      ? { range: "0", skip: 0 }
      : decodeUpstashCursor(options.cursor);
    const documents: DocumentSummary[] = [];
    for (;;) {
      const page = await callVectorIndex(() =>
        this.#index.range(
          { cursor: range, limit: UPSTASH_ID_PAGE, includeMetadata: true },
          { namespace },
        )
      );
      const firsts = page.vectors.flatMap((vector) => {
        const parsed = storedSchema.safeParse(vector);
        return parsed.success && String(parsed.data.id) === `${parsed.data.metadata.doc_id}#0`
          ? [parsed.data.metadata]
          : [];
      });
      for (const [position, metadata] of firsts.entries()) {
        if (position < skip) continue;
        if (documents.length === options.limit) {
          return { documents, cursor: encodeUpstashCursor({ range, skip: position }) };
        }
        const chunks = (await this.#chunkIds(metadata.doc_id, namespace)).length;
        documents.push(documentSummary(metadata.doc_id, metadata, chunks));
      }
      skip = 0;
      if (page.vectors.length === 0 || page.nextCursor === "") return { documents };
      range = page.nextCursor;
    }
  }

  async getDocument(docId: string, options: { namespace: string }): Promise<StoredChunk[]> {
    const namespace = checkNamespace(options.namespace);
    if (docId === "") return [];
    const ids = await this.#chunkIds(docId, namespace);
    const chunks: StoredChunk[] = [];
    for (let start = 0; start < ids.length; start += UPSTASH_ID_PAGE) {
      const page = ids.slice(start, start + UPSTASH_ID_PAGE);
      const fetched = await callVectorIndex(() =>
        this.#index.fetch(page, { includeMetadata: true, includeData: true, namespace })
      );
      for (const vector of fetched) {
        if (!vector) continue; // deleted between the listing and the fetch
        const stored = parseReply(storedSchema, vector);
        chunks.push({ id: String(stored.id), text: stored.data ?? "", metadata: stored.metadata });
      }
    }
    return chunks.sort((a, b) => a.metadata.chunk_index - b.metadata.chunk_index);
  }

  async count(options: { namespace: string }): Promise<number> {
    const namespace = checkNamespace(options.namespace);
    const info = parseReply(
      infoSchema,
      await callVectorIndex(() => this.#index.info()),
    );
    const counts = info.namespaces[namespace];
    // Pending vectors are stored but not yet indexed: the namespace holds them.
    return counts ? counts.vectorCount + counts.pendingVectorCount : 0;
  }
}

function checkNamespace(namespace: string): string {
  if (UNSAFE_NAMESPACE.test(namespace)) {
    throw new InvalidRequestError(
      'namespace: must not contain whitespace, "/", "?", "#", "%" or "\\"',
    );
  }
  return namespace;
}

function toUpstashVector(chunk: IndexedChunk): UpstashHybridVector {
  return {
    id: chunk.id,
    vector: chunk.vector,
    sparseVector: sparseVector(searchableText(chunk), { kind: "document" }),
    metadata: { ...chunk.metadata },
    data: chunk.text,
  };
}

/** The request for one search mode, or null when nothing can match. */
function toUpstashQuery(
  query: ResolvedVectorQuery,
  filter: string | undefined,
): UpstashQuery | null {
  const common = {
    topK: query.topK,
    includeMetadata: true,
    includeData: true,
    ...(filter === undefined ? {} : { filter }),
  };
  // Only the vectors sent pick the components: Upstash documents `queryMode`
  // for indexes with hosted embedding models (`/query-data`), not for vectors.
  const sparse = sparseVector(query.text, { kind: "query" });
  const hasTerms = sparse.indices.length > 0;
  if (query.mode === "sparse") {
    if (!hasTerms) return null;
    return {
      ...common,
      sparseVector: sparse,
      weightingStrategy: WeightingStrategy.IDF,
    };
  }
  const vector = query.vector;
  if (!vector || vector.length === 0) {
    throw new InvalidRequestError(
      `vector: required for ${query.mode} search`,
    );
  }
  // A query of stop words only has no sparse side: hybrid falls back to dense.
  if (query.mode === "dense" || !hasTerms) return { ...common, vector };
  return {
    ...common,
    vector,
    sparseVector: sparse,
    weightingStrategy: WeightingStrategy.IDF,
    fusionAlgorithm: FusionAlgorithm.RRF,
  };
}

function toSearchHit(result: unknown): SearchHit {
  const hit = parseReply(hitSchema, result);
  const metadata: ChunkMetadata = hit.metadata;
  return {
    id: String(hit.id),
    doc_id: metadata.doc_id,
    text: hit.data ?? "",
    score: hit.score,
    metadata,
  };
}

function parseReply<T>(schema: z.ZodType<T>, reply: unknown): T {
  const parsed = schema.safeParse(reply);
  if (!parsed.success) {
    throw new UpstreamError("vector index", {
      message: "The vector index provider sent an unexpected reply",
      cause: parsed.error,
    });
  }
  return parsed.data;
}

/**
 * Runs one SDK call and turns its failures into `UpstreamError`. The SDK
 * throws `UpstashError` (named, not exported) when the service answered with
 * an error; anything else is a network failure or our deadline, worth a retry.
 */
async function callVectorIndex<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof SiftError) throw error;
    const answered = error instanceof Error && error.name === "UpstashError";
    throw new UpstreamError("vector index", {
      cause: error,
      isRetryable: !answered,
    });
  }
}

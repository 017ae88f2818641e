import { Bm25Index } from "../search/bm25.ts";
import { matchesFilter } from "../search/filter.ts";
import { reciprocalRankFusion } from "../search/rrf.ts";
import { z } from "zod";
import { InvalidRequestError, SiftError } from "../errors.ts";
import {
  type IndexedChunk,
  searchableText,
  type SearchHit,
  type VectorIndex,
  type VectorQuery,
} from "./port.ts";
import type { SnapshotStore } from "./snapshot.ts";

type StoredChunk = Omit<IndexedChunk, "vector"> & { vector: Float32Array };

class Namespace {
  readonly chunks = new Map<string, StoredChunk>();
  readonly bm25 = new Bm25Index();

  put(chunk: IndexedChunk): void {
    this.chunks.set(chunk.id, { ...chunk, vector: normalize(chunk.vector) });
    this.bm25.add(chunk.id, searchableText(chunk));
  }

  remove(id: string): void {
    this.chunks.delete(id);
    this.bm25.remove(id);
  }
}

function normalize(vector: number[]): Float32Array {
  let norm = 0;
  for (const value of vector) norm += value * value;
  norm = Math.sqrt(norm) || 1;
  return Float32Array.from(vector, (value) => value / norm);
}

const snapshotSchema = z.object({
  version: z.literal(1),
  namespaces: z.record(
    z.string(),
    z.array(z.object({
      id: z.string(),
      text: z.string(),
      vector: z.array(z.number()),
      metadata: z.looseObject({ doc_id: z.string(), chunk_index: z.number() }),
    })),
  ),
});
type Snapshot = z.infer<typeof snapshotSchema>;

/**
 * The embedded vector index: brute-force cosine for dense, BM25 for sparse,
 * and reciprocal rank fusion of both for hybrid. Fine for tens of thousands of
 * chunks; past that, use Upstash Vector. With a `SnapshotStore` every change is
 * written through, so ingested documents survive a restart.
 */
export class LocalIndex implements VectorIndex {
  readonly name = "local";
  readonly #namespaces = new Map<string, Namespace>();
  readonly #snapshot: SnapshotStore | undefined;
  #loaded: Promise<void> | undefined;
  #saving: Promise<void> = Promise.resolve();

  constructor(options: { snapshot?: SnapshotStore } = {}) {
    this.#snapshot = options.snapshot;
  }

  async upsert(chunks: IndexedChunk[], options: { namespace: string }): Promise<void> {
    await this.#load();
    const namespace = this.#namespace(options.namespace, true)!;
    for (const chunk of chunks) namespace.put(chunk);
    await this.#save();
  }

  async query(query: VectorQuery): Promise<SearchHit[]> {
    await this.#load();
    const namespace = this.#namespace(query.namespace, false);
    if (!namespace || query.topK <= 0) return [];
    const accept = (id: string) =>
      matchesFilter(namespace.chunks.get(id)?.metadata ?? {}, query.filter);
    // Fusion needs more than topK from each side: a chunk ranked 30th by both
    // can beat one ranked 1st by only one of them.
    const candidates = query.mode === "hybrid" ? Math.max(query.topK * 5, 50) : query.topK;
    const dense = query.mode === "sparse" ? [] : this.#dense(namespace, query, candidates, accept);
    const sparse = query.mode === "dense"
      ? []
      : namespace.bm25.search(query.text, candidates, query.filter ? accept : undefined);
    const ranked = query.mode === "dense"
      ? dense
      : query.mode === "sparse"
      ? sparse
      : reciprocalRankFusion([dense.map((hit) => hit.id), sparse.map((hit) => hit.id)])
        .map((item) => ({ id: item.id, score: item.rrf_score }));
    return ranked.slice(0, query.topK).map(({ id, score }) => {
      const chunk = namespace.chunks.get(id)!;
      return {
        id,
        doc_id: chunk.metadata.doc_id,
        text: chunk.text,
        score,
        metadata: chunk.metadata,
      };
    });
  }

  async deleteDocument(docId: string, options: { namespace: string }): Promise<number> {
    await this.#load();
    const namespace = this.#namespace(options.namespace, false);
    if (!namespace) return 0;
    const ids = [...namespace.chunks.values()]
      .filter((chunk) => chunk.metadata.doc_id === docId)
      .map((chunk) => chunk.id);
    for (const id of ids) namespace.remove(id);
    if (ids.length > 0) await this.#save();
    return ids.length;
  }

  async count(options: { namespace: string }): Promise<number> {
    await this.#load();
    return this.#namespace(options.namespace, false)?.chunks.size ?? 0;
  }

  #namespace(name: string, create: boolean): Namespace | undefined {
    let namespace = this.#namespaces.get(name);
    if (!namespace && create) this.#namespaces.set(name, namespace = new Namespace());
    return namespace;
  }

  #dense(
    namespace: Namespace,
    query: VectorQuery,
    limit: number,
    accept: (id: string) => boolean,
  ): { id: string; score: number }[] {
    if (!query.vector) {
      throw new InvalidRequestError("vector: required for dense and hybrid search");
    }
    const vector = normalize(query.vector);
    const scored: { id: string; score: number }[] = [];
    for (const chunk of namespace.chunks.values()) {
      if (chunk.vector.length !== vector.length) {
        throw new InvalidRequestError(
          `The index holds ${chunk.vector.length}-dimensional vectors but the query has ${vector.length}: ` +
            "re-ingest after changing the embedding model",
        );
      }
      if (!accept(chunk.id)) continue;
      let dot = 0;
      for (let i = 0; i < vector.length; i++) dot += vector[i]! * chunk.vector[i]!;
      scored.push({ id: chunk.id, score: dot });
    }
    return scored
      .sort((x, y) => y.score - x.score || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0))
      .slice(0, limit);
  }

  #load(): Promise<void> {
    this.#loaded ??= (async () => {
      const text = await this.#snapshot?.load();
      if (!text) return;
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch (error) {
        json = error;
      }
      const parsed = snapshotSchema.safeParse(json);
      if (!parsed.success) {
        throw new SiftError(
          "internal_error",
          500,
          `The index snapshot at ${this.#snapshot?.location} is unreadable`,
          {
            cause: parsed.error,
          },
        );
      }
      const snapshot = parsed.data;
      for (const [name, chunks] of Object.entries(snapshot.namespaces)) {
        const namespace = this.#namespace(name, true)!;
        for (const chunk of chunks) namespace.put(chunk);
      }
    })();
    return this.#loaded;
  }

  /** Writes are chained so two concurrent upserts never interleave on disk. */
  #save(): Promise<void> {
    const snapshot = this.#snapshot;
    if (!snapshot) return Promise.resolve();
    // A failed write must not poison the chain: the next change writes everything again.
    this.#saving = this.#saving.catch(() => {}).then(() =>
      snapshot.save(JSON.stringify(this.#toSnapshot()))
    );
    return this.#saving;
  }

  #toSnapshot(): Snapshot {
    const namespaces: Snapshot["namespaces"] = {};
    for (const [name, namespace] of this.#namespaces) {
      namespaces[name] = [...namespace.chunks.values()].map((chunk) => ({
        id: chunk.id,
        text: chunk.text,
        metadata: chunk.metadata,
        vector: Array.from(chunk.vector, (value) => Math.round(value * 1e6) / 1e6),
      }));
    }
    return { version: 1, namespaces };
  }
}

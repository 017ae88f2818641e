import type { ResilientCache } from "../../shared/cache/resilient.ts";
import type { Embedder } from "../../shared/embeddings/port.ts";
import { sha256Hex } from "../../shared/hash.ts";
import type {
  MetadataFilter,
  SearchHit,
  SearchMode,
  VectorIndex,
} from "../../shared/vector/port.ts";

export type SearchInput = {
  query: string;
  top_k: number;
  mode: SearchMode;
  filter?: MetadataFilter | undefined;
  namespace: string;
};

const EMBEDDING_TTL_SECONDS = 7 * 24 * 3600;

/** A query's embedding, cached: the same text and model always embed the same. */
export async function embedQuery(
  deps: { embedder: Embedder; cache: ResilientCache },
  query: string,
  signal?: AbortSignal,
): Promise<number[]> {
  const key = `embedding:${deps.embedder.model}:${
    deps.embedder.dimensions ?? "default"
  }:${await sha256Hex(query)}`;
  const { value } = await deps.cache.getOrSet(
    key,
    async () => (await deps.embedder.embed([query], signal ? { signal } : {}))[0]!,
    { ttlSeconds: EMBEDDING_TTL_SECONDS },
  );
  return value;
}

/** Dense, sparse (BM25) or hybrid (RRF of both) retrieval over the index. */
export async function search(
  deps: { embedder: Embedder; index: VectorIndex; cache: ResilientCache },
  input: SearchInput,
  signal?: AbortSignal,
): Promise<SearchHit[]> {
  const vector = input.mode === "sparse" ? undefined : await embedQuery(deps, input.query, signal);
  return await deps.index.query({
    text: input.query,
    ...(vector ? { vector } : {}),
    mode: input.mode,
    topK: input.top_k,
    ...(input.filter ? { filter: input.filter } : {}),
    namespace: input.namespace,
  });
}

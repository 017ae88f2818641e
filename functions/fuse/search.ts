import type { ResilientCache } from "../../shared/cache/resilient.ts";
import type { Embedder } from "../../shared/embeddings/port.ts";
import { sha256Hex } from "../../shared/hash.ts";
import { SiftError } from "../../shared/errors.ts";
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
  onTokens?: (tokensIn: number) => void,
): Promise<number[]> {
  const key = `embedding:${deps.embedder.model}:${
    deps.embedder.dimensions ?? "default"
  }:${await sha256Hex(query)}`;
  const { value } = await deps.cache.getOrSet(
    key,
    // A cached embedding costs nothing: only a call made counts its tokens.
    async () => (await deps.embedder.embed([query], { signal, onTokens }))[0]!,
    { ttlSeconds: EMBEDDING_TTL_SECONDS },
  );
  return value;
}

/** A ranking, and why it is sparse when dense or hybrid was asked for. */
export type SearchOutcome = {
  hits: SearchHit[];
  /** The query's embedding tokens, as the provider reported them (0 when cached or unreported). */
  tokensIn: number;
  /** Set when embeddings failed and BM25 alone ranked. */
  degraded?: { reason: string };
};

export const SPARSE_FALLBACK_REASON =
  "the embeddings provider failed: sparse (BM25) retrieval only";

/**
 * Dense, sparse (BM25) or hybrid (RRF of both) retrieval over the index.
 * When the query cannot be embedded (the provider is down, after its
 * retries), dense and hybrid fall back to sparse and say so, so a question
 * still gets passages. A cancelled request and a caller's own mistake (a 4xx)
 * still fail. Hybrid hands the index the embedding while it is still on its
 * way: the embedded index scores BM25 meanwhile.
 */
export async function search(
  deps: { embedder: Embedder; index: VectorIndex; cache: ResilientCache },
  input: SearchInput,
  signal?: AbortSignal,
): Promise<SearchOutcome> {
  let tokensIn = 0;
  const query = {
    text: input.query,
    mode: input.mode,
    topK: input.top_k,
    ...(input.filter ? { filter: input.filter } : {}),
    namespace: input.namespace,
  };
  if (input.mode === "sparse") return { hits: await deps.index.query(query), tokensIn };
  let embedding: { failed: unknown } | undefined;
  const vector = embedQuery(deps, input.query, signal, (tokens) => (tokensIn += tokens)).catch(
    (error) => {
      embedding = { failed: error };
      throw error;
    },
  );
  vector.catch(() => {}); // handled below, whether or not the index waited for it
  try {
    const hits = await deps.index.query({
      ...query,
      vector: input.mode === "hybrid" ? vector : await vector,
    });
    return { hits, tokensIn };
  } catch (error) {
    // Only the embedding's own failure falls back; the index's are the index's.
    if (!embedding || error !== embedding.failed) throw error;
    if (signal?.aborted || !canFallBack(error)) throw error;
    console.warn("query embedding failed, falling back to sparse:", errorText(error));
    const hits = await deps.index.query({ ...query, mode: "sparse" });
    return { hits, tokensIn, degraded: { reason: SPARSE_FALLBACK_REASON } };
  }
}

/** Provider failures (5xx, timeouts, bad replies) fall back; 4xx and cancellations do not. */
function canFallBack(error: unknown): boolean {
  return !(error instanceof SiftError) || error.status >= 500;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

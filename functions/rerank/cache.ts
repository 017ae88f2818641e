import { sha256Hex } from "../../shared/hash.ts";
import type { RerankDocument } from "../../shared/rerank/types.ts";

/** How long a strategy's ranking stays cached: it is deterministic given its inputs. */
export const RERANK_RESULT_TTL_SECONDS = 24 * 3600;

/**
 * The cache key of a ranking: the strategy's prefix (`rerank`, `rerank-item`)
 * and the digest of everything the ranking depends on.
 */
export async function resultCacheKey(prefix: string, inputs: unknown): Promise<string> {
  return `${prefix}:${await sha256Hex(JSON.stringify(inputs))}`;
}

/** Each document's digest: its text, and its metadata when the strategy reads it. */
export async function documentDigests(
  documents: readonly RerankDocument[],
  options: { metadata: boolean },
): Promise<string[]> {
  return await Promise.all(
    documents.map((d) =>
      sha256Hex(options.metadata ? JSON.stringify([d.text, d.metadata ?? {}]) : d.text)
    ),
  );
}

import type { ItemOptions } from "./rerank/item-options.ts";
import type { TotOptions } from "./rerank/tot/options.ts";
import type { RerankStrategy } from "./rerank/types.ts";
import type { MetadataFilter, SearchMode } from "./vector/port.ts";

/**
 * One pipeline's settings, as `POST /v1/query` takes them (`pipeline`) and
 * as the evaluation's variants name them: retrieval (with RAG-Fusion or
 * not), an optional rerank, the namespace and filter.
 */
export type Pipeline = {
  retrieval: {
    mode: SearchMode;
    top_k: number;
    /** RAG-Fusion with this many LLM-written variations; 0 = off. */
    fusion: number;
  };
  rerank?: {
    strategy: RerankStrategy;
    top_n: number;
    batch_size: number;
    explain: boolean;
    /** Default 0.5 per criterion (REBEL); `"rubric"`: a generated rubric's own weights. */
    weights?: number | Record<string, number> | "rubric" | undefined;
    /** Strategy item's options; its defaults when left out. */
    item?: ItemOptions | undefined;
    /** Strategy tot's options (pinned dimensions, unit); its defaults when left out. */
    tot?: TotOptions | undefined;
    /** A cross-encoder (Workers AI) keeps `top_n` of the retrieved before the LLM reranks. */
    prefilter?: { model: string; top_n: number } | undefined;
  } | undefined;
  namespace: string;
  filter?: MetadataFilter | undefined;
  /** Every step one after another, for measuring what the concurrency saves. */
  sequential: boolean;
};

import type { Config } from "./config.ts";
import type { ResilientCache } from "./cache/resilient.ts";
import type { CacheStore } from "./cache/port.ts";
import type { Embedder } from "./embeddings/port.ts";
import type { JobBackend } from "./jobs/types.ts";
import type { LlmContext, OfflineFetch } from "./llm/client.ts";
import type { VectorIndex } from "./vector/port.ts";

/*
 * What a handler gets (`Deps`) and the hooks an entry hands the composition
 * (compose/runtime.ts) to find state, jobs and a model binding in its
 * environment. The ports' types; what implements them is picked in compose/.
 */

/**
 * Shared state found in the environment: on Workers, the Durable Object that
 * holds the embedded index and cache for every Worker bound to it.
 */
export type StateFromEnv = (
  env: Record<string, unknown>,
) => { index: VectorIndex; cache: CacheStore } | undefined;

/**
 * The job backend found in the environment: Deno KV on Deno (opened by the
 * entry), a Queue binding with the Durable Object on Workers.
 */
export type JobsFromEnv = (env: Record<string, unknown>) => JobBackend | undefined;

/**
 * A provider reached through a binding in the environment, as the `openai`
 * SDK's `fetch` (Workers AI's `AI` binding); undefined where there is none.
 */
export type LlmFetchFromEnv = (
  env: Record<string, unknown>,
  config: Config,
) => OfflineFetch | undefined;

/** Everything a handler may use, built from this request's config. */
export type Deps = {
  config: Config;
  llm: LlmContext;
  /** The evaluation model (`JUDGE_MODEL`): by default not the model that answers. */
  judge: LlmContext;
  embedder: Embedder;
  index: VectorIndex;
  cache: ResilientCache;
  /** Where jobs for webhook callers live and queue: the platform's queue, else memory. */
  jobs: JobBackend;
  /** The caller's tenant when its key names one: `index` and `cache` are then its own. */
  tenant?: string;
  /** What serves each port, as `/healthz` reports it: `offline` for embedded defaults. */
  providers: { llm: string; embeddings: string; index: string; cache: string };
};

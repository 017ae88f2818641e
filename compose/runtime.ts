import { type Config, readConfig } from "../shared/config.ts";
import type { Deps, JobsFromEnv, LlmFetchFromEnv, StateFromEnv } from "../shared/deps.ts";
import { MemoryCache } from "../shared/cache/memory.ts";
import { ResilientCache } from "../shared/cache/resilient.ts";
import { UpstashRedisCache } from "../adapters/upstash/redis-cache.ts";
import { OpenAIEmbedder } from "../adapters/openai/embeddings.ts";
import { createLlmClient, type OfflineFetch } from "../shared/llm/client.ts";
import { createOfflineModel } from "../providers/offline/model.ts";
import { LocalIndex } from "../adapters/vector-index/local.ts";
import type { IndexLog } from "../lib/vector-index/mod.ts";
import { UpstashVectorIndex } from "../adapters/upstash/vector.ts";
import type { PostgresFromEnv } from "../adapters/postgres/from-env.ts";
import { ConfigError } from "../shared/errors.ts";
import { MemoryJobBackend } from "../shared/jobs/memory.ts";

/**
 * The state that outlives a request: the embedded index and cache, the
 * offline model (its fault RNG is a sequence), and the in-flight map that lets
 * concurrent identical cache misses compute once. All of it is created on
 * first use, never at module load; clients for external services are built
 * per request from that request's config (env exists only per request on
 * Workers).
 */
/** `workersAiBinding`: whether Workers AI is reached through the `AI` binding (else REST). */
type ModelClients = Pick<Deps, "llm" | "judge" | "embedder"> & { workersAiBinding: boolean };

export class Runtime {
  readonly #log: IndexLog | undefined;
  readonly #state: StateFromEnv | undefined;
  readonly #jobs: JobsFromEnv | undefined;
  readonly #onModelCall: (() => void) | undefined;
  readonly #llmFetch: LlmFetchFromEnv | undefined;
  readonly #postgres: PostgresFromEnv | undefined;
  #memoryJobs: MemoryJobBackend | undefined;
  #localIndex: LocalIndex | undefined;
  #memoryCache: MemoryCache | undefined;
  readonly #offlineModels = new Map<string, OfflineFetch>();
  readonly #inflight = new Map<string, Promise<unknown>>();
  #lastEnv: Record<string, unknown> | undefined;
  #lastConfig: Config | undefined;
  #lastDeps:
    | {
      config: Config;
      llm: Deps["llm"];
      index: Deps["index"];
      store: Deps["cache"]["store"];
      jobs: Deps["jobs"];
      deps: Deps;
    }
    | undefined;
  #lastModels:
    | { config: Config; env: Record<string, unknown>; clients: ModelClients }
    | undefined;

  /**
   * `log`: where the in-process index persists (Deno). `state`: shared
   * state in the environment, preferred over isolate memory (Workers).
   * `onModelCall`: told of every chat completion sent to the model, offline
   * or not (what `deno task eval` counts as a query's LLM calls).
   * `llmFetch`: `LLM_PROVIDER=workers-ai` through the `AI` binding (Workers).
   * `postgres`: the index in Postgres when `DATABASE_URL` (or Hyperdrive) is
   * set; passed by the entries that bundle the Postgres client.
   */
  constructor(
    options: {
      log?: IndexLog;
      state?: StateFromEnv;
      jobs?: JobsFromEnv;
      onModelCall?: () => void;
      llmFetch?: LlmFetchFromEnv;
      postgres?: PostgresFromEnv;
    } = {},
  ) {
    this.#onModelCall = options.onModelCall;
    this.#log = options.log;
    this.#state = options.state;
    this.#jobs = options.jobs;
    this.#llmFetch = options.llmFetch;
    this.#postgres = options.postgres;
  }

  /**
   * Config for this env, read per request but parsed again only when the env's
   * contents change: an env object with the same variables and bindings as the
   * last one (a test's `app.request(path, init, env)` with a fresh copy) is
   * answered with the config, and the clients, already built for it.
   */
  config(env: Record<string, unknown>): Config {
    if (!this.#lastConfig || !this.#lastEnv || !sameContents(env, this.#lastEnv)) {
      this.#lastConfig = readConfig(env);
    }
    // The same contents in a new object: kept, so the next request with it compares by identity.
    this.#lastEnv = env;
    return this.#lastConfig;
  }

  /** `env` is only read for bindings (Workers): variables come through `config`. */
  deps(config: Config, env: Record<string, unknown> = {}): Deps {
    const { llm, judge, embedder, workersAiBinding } = this.#models(config, env);
    const postgres = config.vector ? undefined : this.#postgres?.(config, env);
    if (config.database && !postgres) {
      throw new ConfigError("DATABASE_URL is set, but this entry has no Postgres client");
    }
    const shared = config.vector ?? postgres;
    const state = shared && config.redis ? undefined : this.#state?.(env);
    const index = config.vector
      ? new UpstashVectorIndex(config.vector)
      : postgres ?? state?.index ?? this.#openLocalIndex(config);
    const store = config.redis
      ? new UpstashRedisCache(config.redis)
      : state?.cache ?? (this.#memoryCache ??= new MemoryCache());
    const jobs = this.#jobs?.(env) ?? (this.#memoryJobs ??= new MemoryJobBackend());
    // Built of the same parts as last time (the same config, clients, index, cache store and
    // jobs: the environment unchanged, nothing per request among them): the same deps object.
    const last = this.#lastDeps;
    if (
      last && last.config === config && last.llm === llm && last.index === index &&
      last.store === store && last.jobs === jobs
    ) return last.deps;
    const deps = this.#buildDeps(
      config,
      { llm, judge, embedder, workersAiBinding },
      index,
      store,
      jobs,
    );
    this.#lastDeps = { config, llm, index, store, jobs, deps };
    return deps;
  }

  #buildDeps(
    config: Config,
    { llm, judge, embedder, workersAiBinding }: ModelClients,
    index: Deps["index"],
    store: Deps["cache"]["store"],
    jobs: Deps["jobs"],
  ): Deps {
    const offline = config.llm.provider === "offline";
    return {
      config,
      llm,
      judge,
      embedder,
      index,
      cache: new ResilientCache(store, { inflight: this.#inflight }),
      jobs,
      providers: {
        llm: offline
          ? "offline"
          : config.llm.provider === "workers-ai"
          ? `workers-ai (${workersAiBinding ? "binding" : "rest"})`
          : `openai-compatible (${hostOf(config.llm.baseURL)})`,
        embeddings: offline ? "offline" : config.embeddings.model,
        index: index.name === "local" ? "offline" : index.name,
        cache: store.name === "memory" ? "offline" : store.name,
      },
    };
  }

  /**
   * The model clients, built again only when the config or the env object
   * changes: building the openai client cost about a third of a millisecond
   * per request. They hold nothing but their settings and a fetch, so one
   * request may use another's. The deps object itself is reused while all its
   * parts are the same objects as last time; one made per request (on Workers
   * a Postgres socket must not outlive its request) makes new deps.
   */
  #models(config: Config, env: Record<string, unknown>): ModelClients {
    const last = this.#lastModels;
    if (last && last.config === config && sameContents(env, last.env)) {
      if (env !== last.env) this.#lastModels = { ...last, env }; // by identity next time
      return last.clients;
    }
    const counted = this.#onModelCall && countingFetch(this.#onModelCall);
    const workersAiFetch = config.llm.provider === "workers-ai"
      ? this.#llmFetch?.(env, config)
      : undefined;
    const llm = createLlmClient(
      config,
      () => counted ? counted(this.#offlineFetch(config)) : this.#offlineFetch(config),
      {
        ...(counted ? { fetch: counted((input, init) => globalThis.fetch(input, init)) } : {}),
        workersAiFetch: counted && workersAiFetch ? counted(workersAiFetch) : workersAiFetch,
      },
    );
    const clients = {
      workersAiBinding: workersAiFetch !== undefined,
      llm,
      judge: { ...llm, model: config.llm.judgeModel },
      embedder: new OpenAIEmbedder({
        client: llm.client,
        model: config.embeddings.model,
        dimensions: config.embeddings.dimensions,
        ...(llm.provider ? { provider: llm.provider } : {}),
        floats: config.llm.provider === "workers-ai",
      }),
    };
    this.#lastModels = { config, env, clients };
    return clients;
  }

  /**
   * The embedded index, its load started when first asked for (at start-up:
   * `/healthz` says `loading` until it is done; a failed load is every call's error).
   */
  #openLocalIndex(config: Config): LocalIndex {
    if (!this.#localIndex) {
      this.#localIndex = new LocalIndex({
        ...(this.#log ? { log: this.#log } : {}),
        checkpointMinBytes: config.indexCheckpointBytes,
      });
      if (this.#log) this.#localIndex.open().catch(() => {});
    }
    return this.#localIndex;
  }

  /** Makes the embedded index's state one checkpoint (graceful shutdown); a no-op elsewhere. */
  async flush(): Promise<void> {
    await this.#localIndex?.flush();
  }

  #offlineFetch(config: Config): OfflineFetch {
    const { latency, faults, seed } = config.offlineModel;
    const key = JSON.stringify([latency, faults, seed]);
    let offlineFetch = this.#offlineModels.get(key);
    if (!offlineFetch) {
      offlineFetch = offlineModelFetch({
        ...(latency ? { latency } : {}),
        ...(faults ? { faults } : {}),
        seed,
      });
      this.#offlineModels.set(key, offlineFetch);
    }
    return offlineFetch;
  }
}

/**
 * A new offline model (`providers/offline/`) answering the OpenAI protocol
 * through `fetch`. The runtime is where shared/ chooses a provider, so it is
 * the one place here that reaches into providers/; others (the health probe)
 * ask it.
 */
export function offlineModelFetch(
  options: { latency?: string; faults?: string; seed: number },
): OfflineFetch {
  return createOfflineModel(options).fetch;
}

/** Whether two envs hold the same keys with the same values (bindings compared by identity). */
function sameContents(env: Record<string, unknown>, last: Record<string, unknown>): boolean {
  if (env === last) return true;
  const keys = Object.keys(env);
  if (keys.length !== Object.keys(last).length) return false;
  return keys.every((key) => Object.hasOwn(last, key) && env[key] === last[key]);
}

/** Wraps a fetch so each chat completion it sends is reported. */
function countingFetch(onCall: () => void) {
  return (inner: OfflineFetch): OfflineFetch => (input, init) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    if (url.endsWith("/chat/completions")) onCall();
    return inner(input, init);
  };
}

function hostOf(baseURL: string | undefined): string {
  if (!baseURL) return "api.openai.com";
  try {
    return new URL(baseURL).host;
  } catch {
    return "custom";
  }
}

import { APIError } from "openai";
import { OpenAIEmbedder } from "../embeddings/openai.ts";
import { createLlmClient, type LlmContext } from "../llm/client.ts";
import { type Deps, offlineModelFetch } from "../runtime.ts";
import { DEFAULT_NAMESPACE, type VectorIndex } from "../vector/port.ts";

/** `ok`; `degraded`: answers, but rate limited; `down`: fails or times out. */
export type ProviderHealth = "ok" | "degraded" | "down";
export type Health = {
  llm: ProviderHealth;
  embeddings: ProviderHealth;
  index: ProviderHealth;
  cache: ProviderHealth;
};

/** Each probe's time limit: `/healthz` answers within about this long. */
export const PROBE_TIMEOUT_MS = 2_000;
/** A result is reused this long, so `/healthz` polled often does not load the providers. */
const TTL_MS = 5_000;

/**
 * Cheap, time-limited checks of each provider, cached briefly. Nothing is
 * retried: a provider that needs retries to answer is not healthy. The
 * offline model is probed through an instance of its own, so probes never
 * shift the fault sequence that requests see.
 *
 * @example
 * const probe = new HealthProbe();
 * const health = await probe.check(deps, index); // { llm: "ok", embeddings: "down", ... }
 */
export class HealthProbe {
  readonly #results = new Map<string, { at: number; health: Promise<Health> }>();
  readonly #offline = new Map<string, LlmContext>();

  /** `index`: the index itself, not a wrapper that would wait on the demo corpus. */
  check(deps: Deps, index: VectorIndex = deps.index): Promise<Health> {
    const key = JSON.stringify([deps.providers, deps.config.offlineModel, deps.config.llm.baseURL]);
    const cached = this.#results.get(key);
    if (cached && Date.now() - cached.at < TTL_MS) return cached.health;
    const health = this.#probe(deps, index);
    this.#results.set(key, { at: Date.now(), health });
    return health;
  }

  async #probe(deps: Deps, index: VectorIndex): Promise<Health> {
    const llm = this.#client(deps);
    const client = llm.client.withOptions({ maxRetries: 0, timeout: PROBE_TIMEOUT_MS });
    const offline = deps.config.llm.provider === "offline";
    const embedder = new OpenAIEmbedder({
      client,
      model: deps.embedder.model,
      dimensions: deps.embedder.dimensions,
    });
    const [llmHealth, embeddings, indexHealth, cache] = await Promise.all([
      // Offline chat costs nothing; a real provider's model list costs no tokens.
      timed(() =>
        offline
          ? client.chat.completions.create({
            model: llm.model,
            messages: [{ role: "user", content: "ping" }],
            max_tokens: 1,
          })
          : client.models.list()
      ),
      timed(() => embedder.embed(["healthz"])),
      timed(() => index.count({ namespace: DEFAULT_NAMESPACE })),
      timed(() => deps.cache.store.get("sift:healthz")),
    ]);
    return { llm: llmHealth, embeddings, index: indexHealth, cache };
  }

  #client(deps: Deps): LlmContext {
    const { config } = deps;
    if (config.llm.provider !== "offline") return deps.llm;
    const key = JSON.stringify(config.offlineModel);
    let context = this.#offline.get(key);
    if (!context) {
      const { faults, seed } = config.offlineModel;
      const fetch = offlineModelFetch({ ...(faults ? { faults } : {}), seed });
      context = createLlmClient(config, () => fetch);
      this.#offline.set(key, context);
    }
    return context;
  }
}

/** Runs one probe under the time limit and grades how it went. */
async function timed(probe: () => Promise<unknown>): Promise<ProviderHealth> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), PROBE_TIMEOUT_MS);
  });
  try {
    const outcome = await Promise.race([probe().then(() => "answered" as const), limit]);
    return outcome === "timeout" ? "down" : "ok";
  } catch (error) {
    return gradeError(error);
  } finally {
    clearTimeout(timer);
  }
}

/** A rate limit means working but busy; a refused key or a server error means down. */
function gradeError(error: unknown): ProviderHealth {
  const apiError = error instanceof APIError
    ? error
    : error instanceof Error && error.cause instanceof APIError
    ? error.cause
    : undefined;
  const status = apiError?.status;
  if (status === 429) return "degraded";
  // Reachable and answering: a model list some compatible servers lack is no outage.
  if (status && status >= 400 && status < 500 && status !== 401 && status !== 403) return "ok";
  return "down";
}

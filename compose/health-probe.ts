import { APIError } from "openai";
import type {
  Health,
  HealthProblems,
  HealthReport,
  ProviderHealth,
} from "../shared/health/report.ts";
import { SiftError } from "../shared/errors.ts";
import { OpenAIEmbedder } from "../adapters/openai/embeddings.ts";
import { createLlmClient, type LlmContext } from "../shared/llm/client.ts";
import type { Deps } from "../shared/deps.ts";
import { offlineModelFetch } from "./runtime.ts";
import { DEFAULT_NAMESPACE, type VectorIndex } from "../shared/vector/port.ts";

/** Each probe's time limit: `/healthz` answers within about this long. */
export const PROBE_TIMEOUT_MS = 2_000;
/**
 * A result is reused this long, so `/healthz` polled often does not load the
 * providers nor spend a real provider's quota: its probe is a chat call of one
 * token and an embedding, at most one of each per process per `PROVIDER_TTL_MS`.
 */
const OFFLINE_TTL_MS = 5_000;
export const PROVIDER_TTL_MS = 30_000;

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
  readonly #results = new Map<string, { at: number; health: Promise<HealthReport> }>();
  readonly #offline = new Map<string, LlmContext>();

  /** `index`: the index itself, not a wrapper that would wait on the demo corpus. */
  async check(deps: Deps, index: VectorIndex = deps.index): Promise<Health> {
    return (await this.report(deps, index)).checks;
  }

  /** The grades and, for each provider not `ok`, why (a status, a timeout, a damaged file). */
  report(deps: Deps, index: VectorIndex = deps.index): Promise<HealthReport> {
    const key = JSON.stringify([deps.providers, deps.config.offlineModel, deps.config.llm.baseURL]);
    const cached = this.#results.get(key);
    const ttl = deps.config.llm.provider === "offline" ? OFFLINE_TTL_MS : PROVIDER_TTL_MS;
    if (cached && Date.now() - cached.at < ttl) return cached.health;
    const health = this.#probe(deps, index);
    this.#results.set(key, { at: Date.now(), health });
    return health;
  }

  async #probe(deps: Deps, index: VectorIndex): Promise<HealthReport> {
    const llm = this.#client(deps);
    const client = llm.client.withOptions({ maxRetries: 0, timeout: PROBE_TIMEOUT_MS });
    const embedder = new OpenAIEmbedder({
      client,
      model: deps.embedder.model,
      dimensions: deps.embedder.dimensions,
    });
    const [llm_, embeddings, index_, cache] = await Promise.all([
      // What sift calls, not `/models`: a server can list models while every chat call fails.
      timed("the chat call", () =>
        client.chat.completions.create({
          model: llm.model,
          messages: [{ role: "user", content: "ping" }],
          max_tokens: 1,
        })),
      timed("the embedding call", () => embedder.embed(["healthz"])),
      timed("the index", () => index.count({ namespace: DEFAULT_NAMESPACE })),
      timed("the cache", () => deps.cache.store.get("sift:healthz")),
    ]);
    const graded = { llm: llm_, embeddings, index: index_, cache };
    const checks = Object.fromEntries(
      Object.entries(graded).map(([name, probe]) => [name, probe.health]),
    ) as Health;
    const problems: HealthProblems = Object.fromEntries(
      Object.entries(graded).flatMap(([name, probe]) =>
        probe.problem ? [[name, probe.problem]] : []
      ),
    );
    return { checks, problems };
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

type Graded = { health: ProviderHealth; problem?: string };

/** Runs one probe under the time limit and grades how it went, saying why when not `ok`. */
async function timed(what: string, probe: () => Promise<unknown>): Promise<Graded> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), PROBE_TIMEOUT_MS);
  });
  try {
    const outcome = await Promise.race([probe().then(() => "answered" as const), limit]);
    return outcome === "timeout"
      ? { health: "down", problem: `${what} did not answer within ${PROBE_TIMEOUT_MS / 1000} s` }
      : { health: "ok" };
  } catch (error) {
    return gradeError(what, error);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A rate limit means working but busy; a refused key, a missing route or
 * model, or a server error means down. A 400 is the server reading the probe
 * and refusing a parameter of it (`max_tokens` on some models): reachable.
 * An error sift made public (a damaged index) is passed on; other messages stay here.
 */
function gradeError(what: string, error: unknown): Graded {
  const apiError = error instanceof APIError
    ? error
    : error instanceof Error && error.cause instanceof APIError
    ? error.cause
    : undefined;
  const status = apiError?.status;
  if (status === 429) return { health: "degraded", problem: `${what} is rate limited (429)` };
  if (status === 400 || status === 422) return { health: "ok" };
  if (status) return { health: "down", problem: `${what} failed with status ${status}` };
  if (error instanceof SiftError && error.type !== "internal_error") {
    return { health: "down", problem: error.message };
  }
  return { health: "down", problem: `${what} failed` };
}

/** What `/healthz` reports of each port: the grades, and why for each not `ok`. */
/** `ok`; `degraded`: answers, but rate limited; `down`: fails or times out. */
export type ProviderHealth = "ok" | "degraded" | "down";
export type Health = {
  llm: ProviderHealth;
  embeddings: ProviderHealth;
  index: ProviderHealth;
  cache: ProviderHealth;
};

/** Why each provider that is not `ok` is not, in words a caller may read. */
export type HealthProblems = Partial<Record<keyof Health, string>>;
export type HealthReport = { checks: Health; problems: HealthProblems };

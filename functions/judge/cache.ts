import type { ResilientCache } from "../../shared/cache/resilient.ts";
import { sha256Hex } from "../../shared/hash.ts";
import type { TokenUsage } from "../../shared/llm/chat.ts";
import type { LlmContext } from "../../shared/llm/client.ts";
import { promptTag, type PromptTemplate } from "../../shared/llm/prompt.ts";
import { NO_USAGE } from "./usage.ts";

const JUDGMENT_TTL_SECONDS = 7 * 24 * 3600;

/** `judge:<prompt>@<version>:<model>:<mode>:<sha256 of the inputs>`. */
export async function judgeCacheKey(
  prompt: Pick<PromptTemplate, "id" | "version">,
  llm: LlmContext,
  inputs: readonly unknown[],
): Promise<string> {
  const mode = llm.structuredOutputs ? "json" : "text";
  return `judge:${promptTag(prompt)}:${llm.model}:${mode}:${await sha256Hex(
    JSON.stringify(inputs),
  )}`;
}

/**
 * A judgment from the cache (its tokens already paid: usage 0), or computed
 * and stored. Degraded results are not stored, so the next run tries again.
 */
export async function cachedJudgment<T extends { usage: TokenUsage; degraded?: boolean }>(
  cache: ResilientCache,
  key: string,
  compute: () => Promise<T>,
): Promise<T> {
  const hit = await cache.get<T>(key);
  if (hit !== undefined) return { ...hit, usage: NO_USAGE };
  const value = await compute();
  if (!value.degraded) await cache.set(key, value, { ttlSeconds: JUDGMENT_TTL_SECONDS });
  return value;
}

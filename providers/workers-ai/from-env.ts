import type { Config } from "../../shared/config.ts";
import { bindingRunner } from "./binding.ts";
import { restRunner } from "./rest.ts";
import { isAiBinding, type WorkersAiRunner } from "./runner.ts";

/**
 * How this request reaches Workers AI: the `AI` binding when the Worker has
 * one, else the REST API when `CLOUDFLARE_ACCOUNT_ID` and
 * `CLOUDFLARE_API_TOKEN` are set, else not at all.
 */
export function workersAiRunner(
  config: Config,
  env: Record<string, unknown>,
  options: { fetch?: typeof fetch } = {},
): WorkersAiRunner | undefined {
  if (isAiBinding(env.AI)) return bindingRunner(env.AI);
  if (!config.cloudflare) return undefined;
  return restRunner({
    ...config.cloudflare,
    timeoutMs: config.llm.timeoutMs,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}

import type { Config } from "../../shared/config.ts";
import { bindingRunner } from "./binding.ts";
import { restRunner } from "./rest.ts";
import { gatewayBindingOptions, gatewayHeaders } from "../../shared/llm/gateway.ts";
import { isAiBinding, type WorkersAiRunner } from "./runner.ts";

/**
 * How this request reaches Workers AI: the `AI` binding when the Worker has
 * one, else the REST API when `CLOUDFLARE_ACCOUNT_ID` and
 * `CLOUDFLARE_API_TOKEN` are set, else not at all.
 */
export function workersAiRunner(
  config: Config,
  env: Record<string, unknown>,
  options: { fetch?: typeof fetch; step?: string; tenant?: string | undefined } = {},
): WorkersAiRunner | undefined {
  const gateway = config.aiGateway;
  // AI Gateway's logs say which step made the call, and for which tenant.
  const metadata = {
    ...(options.step ? { step: options.step } : {}),
    ...(options.tenant ? { tenant: options.tenant } : {}),
  };
  if (isAiBinding(env.AI)) {
    const runOptions = gateway ? gatewayBindingOptions(gateway, metadata) : undefined;
    return bindingRunner(env.AI, () => runOptions);
  }
  if (!config.cloudflare) return undefined;
  return restRunner({
    ...config.cloudflare,
    timeoutMs: config.llm.timeoutMs,
    ...(gateway ? { headers: () => gatewayHeaders(gateway, metadata) } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}

/**
 * Cloudflare AI Gateway's knobs, sent as `cf-aig-*` headers on every provider
 * call when any `AI_GATEWAY_*` variable is set (the gateway itself is
 * reached by pointing the provider's base URL at it; docs/workers-ai.md).
 */
export type AiGatewayConfig = {
  /**
   * `AI_GATEWAY_ID`: the gateway the `AI` binding routes through (Workers), sent
   * as `cf-aig-gateway-id` to Cloudflare's API.
   */
  id?: string;
  /** `AI_GATEWAY_TOKEN`: an authenticated gateway's own token (`cf-aig-authorization`). */
  token?: string;
  /** `AI_GATEWAY_CACHE_TTL`: seconds the gateway may serve a cached reply. */
  cacheTtlSeconds?: number;
  /** `AI_GATEWAY_SKIP_CACHE`: never answer from the gateway's cache. */
  skipCache?: boolean;
};

/** The gateway's metadata on a call: which step made it (and, where known, for whom). */
export type GatewayMetadata = Record<string, string>;

/**
 * The `cf-aig-*` headers for one call.
 *
 * @example
 * gatewayHeaders({ cacheTtlSeconds: 60 }, { step: "rerank" });
 * // { "cf-aig-cache-ttl": "60", "cf-aig-metadata": '{"step":"rerank"}' }
 */
export function gatewayHeaders(
  gateway: AiGatewayConfig,
  metadata: GatewayMetadata = {},
): Record<string, string> {
  return {
    // Cloudflare's own API routes a call through this gateway (its default gateway otherwise).
    ...(gateway.id ? { "cf-aig-gateway-id": gateway.id } : {}),
    ...(gateway.token ? { "cf-aig-authorization": `Bearer ${gateway.token}` } : {}),
    ...(gateway.cacheTtlSeconds !== undefined
      ? { "cf-aig-cache-ttl": String(gateway.cacheTtlSeconds) }
      : {}),
    ...(gateway.skipCache ? { "cf-aig-skip-cache": "true" } : {}),
    ...(Object.keys(metadata).length ? { "cf-aig-metadata": JSON.stringify(metadata) } : {}),
  };
}

/** The same knobs as the `AI` binding takes them: `run(model, inputs, {gateway})`. */
export function gatewayBindingOptions(
  gateway: AiGatewayConfig,
  metadata: GatewayMetadata = {},
): Record<string, unknown> | undefined {
  if (!gateway.id) return undefined;
  return {
    gateway: {
      id: gateway.id,
      ...(gateway.skipCache ? { skipCache: true } : {}),
      ...(gateway.cacheTtlSeconds !== undefined ? { cacheTtl: gateway.cacheTtlSeconds } : {}),
      ...(Object.keys(metadata).length ? { metadata } : {}),
    },
  };
}

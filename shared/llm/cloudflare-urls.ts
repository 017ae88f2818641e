/**
 * Where Workers AI answers over HTTP, from `CLOUDFLARE_API_BASE_URL`:
 * Cloudflare's API (`https://api.cloudflare.com/client/v4`, the default,
 * where paths carry the account) or an AI Gateway's Workers AI endpoint
 * (`https://gateway.ai.cloudflare.com/v1/{account}/{gateway}/workers-ai`,
 * whose URL carries the account already).
 *
 * @example
 * workersAiUrls({ apiBaseUrl: "https://api.cloudflare.com/client/v4", accountId: "abc" })
 *   .run("@cf/baai/bge-reranker-base");
 * // "https://api.cloudflare.com/client/v4/accounts/abc/ai/run/@cf/baai/bge-reranker-base"
 */
/** A path segment of a model name, escaped except for the `@` its names start with. */
const segment = (part: string) => encodeURIComponent(part).replaceAll("%40", "@");

export function workersAiUrls(cloudflare: { apiBaseUrl: string; accountId: string }) {
  const base = cloudflare.apiBaseUrl.replace(/\/+$/, "");
  const gateway = /\/workers-ai$/.test(base);
  const root = gateway ? base : `${base}/accounts/${encodeURIComponent(cloudflare.accountId)}/ai`;
  return {
    /** A model's native endpoint: its documented inputs in, `{success, result}` out. */
    run: (model: string) =>
      `${root}${gateway ? "" : "/run"}/${model.split("/").map(segment).join("/")}`,
    /** The OpenAI-compatible endpoints' base (`/chat/completions`, `/embeddings`). */
    openAiBase: `${root}/v1`,
  };
}

import assert from "node:assert/strict";
import { workersAiUrls } from "./cloudflare-urls.ts";

Deno.test("workersAiUrls() builds Cloudflare API paths, or an AI Gateway's Workers AI paths", () => {
  const api = workersAiUrls({
    apiBaseUrl: "https://api.cloudflare.com/client/v4/",
    accountId: "acc",
  });
  assert.equal(
    api.run("@cf/baai/bge-reranker-base"),
    "https://api.cloudflare.com/client/v4/accounts/acc/ai/run/@cf/baai/bge-reranker-base",
  );
  assert.equal(api.openAiBase, "https://api.cloudflare.com/client/v4/accounts/acc/ai/v1");
  const gateway = workersAiUrls({
    apiBaseUrl: "https://gateway.ai.cloudflare.com/v1/acc/my-gateway/workers-ai",
    accountId: "acc",
  });
  assert.equal(
    gateway.run("@cf/baai/bge-reranker-base"),
    "https://gateway.ai.cloudflare.com/v1/acc/my-gateway/workers-ai/@cf/baai/bge-reranker-base",
  );
  assert.equal(
    gateway.openAiBase,
    "https://gateway.ai.cloudflare.com/v1/acc/my-gateway/workers-ai/v1",
  );
});

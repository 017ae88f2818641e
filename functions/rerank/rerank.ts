import type { Deps } from "../../shared/deps.ts";
import { rerankRunner } from "./runners.ts";
import type { RerankRequest, RerankResponse } from "./types.ts";

export type { RerankRequest, RerankResponse, RerankResultItem } from "./types.ts";

/**
 * Reranks documents with the request's strategy: its runner
 * (`runners.ts`) as `shared/rerank/strategies.ts` declares it.
 */
export async function rerank(
  deps: Pick<Deps, "llm" | "cache">,
  request: RerankRequest,
  signal?: AbortSignal,
): Promise<RerankResponse> {
  return await rerankRunner(request.strategy).run(deps, request, signal);
}

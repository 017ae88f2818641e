import { InvalidRequestError } from "../../shared/errors.ts";
import type { Deps } from "../../shared/deps.ts";
import { rerankStrategyNames, strategyMisfits } from "../../shared/rerank/strategies.ts";
import type { TotOptions } from "../../shared/rerank/tot/options.ts";
import { rerankItem } from "./item/item.ts";
import { checkItemDocuments } from "./item/validate.ts";
import { rerankRebel } from "./rebel.ts";
import { rerankTot } from "./tot/tot.ts";
import { checkTotDocuments } from "./tot/validate.ts";
import type { RerankRequest, RerankResponse } from "./types.ts";

/**
 * How a strategy declared in `shared/rerank/strategies.ts` runs: the
 * function that ranks, and the checks of a request it makes beyond the
 * fit every strategy's request gets (a cap on documents, say).
 */
export type RerankRunner = {
  run: (
    deps: Pick<Deps, "llm" | "cache">,
    request: RerankRequest,
    signal?: AbortSignal,
  ) => Promise<RerankResponse>;
  check?: (body: { documents: readonly unknown[]; tot?: TotOptions | undefined }) => void;
};

/** `none`: retrieval's order, cut to `top_n`. */
function keepOrder(_deps: unknown, request: RerankRequest): Promise<RerankResponse> {
  const topN = request.top_n ?? request.documents.length;
  return Promise.resolve({
    results: request.documents.slice(0, topN).map((document, index) => ({
      index,
      ...(document.id === undefined ? {} : { id: document.id }),
      relevance_score: null,
      scores: null,
    })),
    discarded: [],
    usage: { tokens_in: 0, tokens_out: 0, llm_calls: 0, cached: false },
    degraded: false,
  });
}

const runners = new Map<string, RerankRunner>([
  ["none", { run: keepOrder }],
  ["one-turn", { run: rerankRebel }],
  ["two-turn", { run: rerankRebel }],
  ["relevance", { run: rerankRebel }],
  ["two-turn-relevance", { run: rerankRebel }],
  ["item", { run: rerankItem, check: checkItemDocuments }],
  ["tot", { run: rerankTot, check: checkTotDocuments }],
]);

/** Adds the runner of a strategy defined with `defineRerankStrategy` (same name). */
export function addRerankRunner(name: string, runner: RerankRunner): void {
  runners.set(name, runner);
}

/** The runner of a strategy the request schemas have already checked. */
export function rerankRunner(name: string): RerankRunner {
  const runner = runners.get(name);
  if (!runner) throw new Error(`rerank strategy ${name} has no runner (addRerankRunner)`);
  return runner;
}

/** Strategies defined without a runner: a test keeps this empty. */
export function strategiesWithoutRunner(): string[] {
  return rerankStrategyNames().filter((name) => !runners.has(name));
}

/**
 * What `/v1/rerank` and `/v2/rerank` check of a request beyond its schema:
 * that it asks nothing its strategy does not take (the first misfit is the
 * 400), then the strategy's own checks.
 */
export function checkRerankRequest(
  body: {
    strategy: string;
    documents: readonly unknown[];
    tot?: TotOptions | undefined;
    [field: string]: unknown;
  },
): void {
  const [misfit] = strategyMisfits(body, { rubricField: true });
  if (misfit) throw new InvalidRequestError(`${misfit.path}: ${misfit.message}`);
  rerankRunner(body.strategy).check?.(body);
}

import type { Deps } from "../../shared/deps.ts";
import type { EvalSteps } from "../../functions/evaluate/steps.ts";
import type { BeirDataset } from "./beir-load.ts";
import type { GridCell } from "./beir-grid.ts";
import { type CellRun, documentRanking, type QueryScores, scoreQuery } from "./beir-metrics.ts";

export type CellResult = {
  strategy: string;
  mode: string;
  /** Per query id, in the dataset's order; absent when the run failed. */
  scores: Map<string, QueryScores>;
  runs: Map<string, Pick<CellRun, "calls" | "tokens" | "ms" | "degraded">>;
  failed: { query: string; message: string }[];
};

export type GridProgress = { done: number; total: number };

/**
 * Runs every query through every grid cell, one at a time, so the model
 * calls counted between a run's start and end are that run's. Each cell has
 * a cache scope of its own (and each command run a fresh one), so a run is
 * never served another's cached replies and its cost is what it really cost.
 */
export async function runGrid(
  deps: Deps,
  steps: Pick<EvalSteps, "runVariant">,
  dataset: Pick<BeirDataset, "queries" | "qrels">,
  cells: readonly GridCell[],
  options: {
    recallK: number;
    calls: () => number;
    onProgress?: (progress: GridProgress) => void;
    signal?: AbortSignal;
  },
): Promise<CellResult[]> {
  const stamp = Date.now().toString(36);
  const results: CellResult[] = cells.map(({ strategy, mode }) => ({
    strategy,
    mode,
    scores: new Map(),
    runs: new Map(),
    failed: [],
  }));
  const total = dataset.queries.length * cells.length;
  let done = 0;
  for (const query of dataset.queries) {
    const judged = dataset.qrels.get(query.id) ?? new Map<string, number>();
    for (const [index, cell] of cells.entries()) {
      options.signal?.throwIfAborted();
      const result = results[index]!;
      const before = options.calls();
      try {
        const run = await steps.runVariant(
          deps,
          { query: query.text, pipeline: cell.pipeline },
          options.signal,
          { cacheScope: `beir-${stamp}-${index}` },
        );
        const measured: CellRun = {
          ranking: documentRanking([...run.kept, ...run.retrieved].map((hit) => hit.doc_id)),
          // ITEM selects its utility set and ranks the rest after it: the set is its selection.
          kept: documentRanking(run.utility_doc_ids ?? run.kept.map((passage) => passage.doc_id)),
          answer: run.answer,
          calls: options.calls() - before,
          tokens: run.tokens_in + run.tokens_out,
          ms: run.total_ms,
          degraded: run.degraded,
        };
        result.scores.set(query.id, scoreQuery(measured, judged, query.answers, options.recallK));
        const { calls, tokens, ms, degraded } = measured;
        result.runs.set(query.id, { calls, tokens, ms, degraded });
      } catch (error) {
        if (options.signal?.aborted) throw error;
        result.failed.push({ query: query.id, message: (error as Error).message });
      }
      options.onProgress?.({ done: ++done, total });
    }
  }
  return results;
}

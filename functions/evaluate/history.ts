import type { ResilientCache } from "../../shared/cache/resilient.ts";
import { sha256Hex } from "../../shared/hash.ts";
import { compareRuns } from "./compare.ts";
import { historySchema, type RunSummary, runSummarySchema } from "./run-summary.ts";
import type { Comparison, EvaluationReport } from "./types.ts";

// Kept importable from here, where they lived before compare.ts needed them without history.
export { historySchema, type RunSummary, runSummarySchema };

/** Where previous runs' summaries live: the cache store, or a file for the CLI. */
export interface HistoryStore {
  list(): Promise<RunSummary[]>;
  save(runs: RunSummary[]): Promise<void>;
}

/** Runs kept per history, oldest dropped first. */
export const HISTORY_LENGTH = 50;

/** History in the cache store under `eval:history:<dataset>` (no expiry). */
export function cacheHistory(
  cache: Pick<ResilientCache, "get" | "set">,
  dataset: string,
): HistoryStore {
  const key = `eval:history:${dataset}`;
  return {
    async list() {
      const parsed = historySchema.safeParse(await cache.get(key));
      return parsed.success ? parsed.data : [];
    },
    save: (runs) => cache.set(key, runs),
  };
}

/**
 * A short fingerprint of the questions' ids, in order. Repeated runs of a
 * question count once, so a run with `repeat` compares with one without.
 */
export async function questionSet(report: EvaluationReport): Promise<string> {
  const ids = [...new Set(report.queries.map((query) => query.id))];
  return (await sha256Hex(JSON.stringify(ids))).slice(0, 16);
}

export async function summarizeRun(report: EvaluationReport): Promise<RunSummary> {
  const elo = new Map(report.elo.map((rating) => [rating.agent, rating.score]));
  return {
    run_id: report.run_id,
    dataset: report.dataset.name,
    created_at: report.created_at,
    questions: report.dataset.questions,
    question_set: await questionSet(report),
    variants: Object.fromEntries(report.summary.map((variant) => [variant.variant, {
      retrieval_precision: variant.retrieval_precision,
      answer_similarity: variant.answer_similarity,
      system_quality: variant.system_quality,
      speed_chars_per_second: variant.speed_chars_per_second,
      hit_at_k: variant.hit_at_k?.value ?? null,
      target_mrr_at_5: variant.target_mrr_at_5,
      mrr_at_5_somewhat: variant.mrr_at_5?.somewhat ?? null,
      elo: elo.get(variant.variant) ?? null,
    }])),
  };
}

/**
 * Compares a finished run with the latest earlier run of the same dataset
 * and the same questions (a run over 5 questions says nothing about one
 * over 100),
 * sets `report.comparison`, and appends the run to history (replacing an
 * entry with the same run id, so recording a run twice does not compare it
 * with itself).
 */
export async function recordRun(
  report: EvaluationReport,
  store: HistoryStore,
): Promise<Comparison> {
  const summary = await summarizeRun(report);
  const runs = (await store.list()).filter((run) => run.run_id !== summary.run_id);
  const previous = runs.findLast((run) =>
    run.dataset === summary.dataset && run.question_set === summary.question_set
  );
  report.comparison = compareRuns(summary, previous);
  await store.save([...runs, summary].slice(-HISTORY_LENGTH));
  return report.comparison;
}

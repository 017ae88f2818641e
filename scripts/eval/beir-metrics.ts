import { exactMatch, tokenF1 } from "../../shared/metrics/answer.ts";
import {
  ndcgAtK,
  reciprocalRankAtK,
  utilityPrecisionRecallF1,
} from "../../shared/metrics/retrieval.ts";

/** What one query through one grid cell produced, at the level of corpus documents. */
export type CellRun = {
  /** The final ranking of corpus ids: the reranked ones first, then the rest as retrieved. */
  ranking: string[];
  /** The corpus ids the strategy selected: ITEM's utility set, else what the answer was given. */
  kept: string[];
  answer: string;
  calls: number;
  tokens: number;
  ms: number;
  degraded: boolean;
};

export type QueryScores = {
  ndcg10: number;
  recall: number;
  mrr10: number;
  utility: { precision: number; recall: number; f1: number };
  /** Absent when the query has no reference answer. */
  em?: number;
  f1?: number;
};

/** Passages to corpus ids, each once, at its best rank (BEIR's max-passage convention). */
export function documentRanking(docIds: readonly string[]): string[] {
  return [...new Set(docIds)];
}

/**
 * One query's scores against its qrels (grade > 0 is relevant): nDCG@10 with
 * linear gains over the judged grades (trec_eval's ndcg_cut_10), Recall@k
 * and MRR@10 over the ranking, utility precision/recall/F1 of the kept
 * documents against the relevant ones (paper 002), and SQuAD EM/F1 of the
 * answer when references exist.
 */
export function scoreQuery(
  run: Pick<CellRun, "ranking" | "kept" | "answer">,
  judged: ReadonlyMap<string, number>,
  answers: readonly string[],
  recallK: number,
): QueryScores {
  const relevant = new Set([...judged].filter(([, grade]) => grade > 0).map(([id]) => id));
  const gains = run.ranking.slice(0, 10).map((id) => Math.max(0, judged.get(id) ?? 0));
  const ideal = [...judged.values()].filter((grade) => grade > 0);
  const found = run.ranking.slice(0, recallK).filter((id) => relevant.has(id)).length;
  return {
    ndcg10: ndcgAtK(gains, 10, ideal),
    recall: relevant.size === 0 ? 0 : found / relevant.size,
    mrr10: reciprocalRankAtK(run.ranking, relevant, 10),
    utility: utilityPrecisionRecallF1(new Set(run.kept), relevant),
    ...(answers.length > 0
      ? { em: exactMatch(run.answer, answers), f1: tokenF1(run.answer, answers) }
      : {}),
  };
}

import { answerJudgeReplies } from "./answer-judge.ts";
import { categoryReplies } from "./categories.ts";
import { issue42Replies } from "./categories-42.ts";
import { pointwiseReplies, rankingReplies, selectionReplies } from "./item.ts";
import { pairwiseJudgeReplies } from "./pairwise-judge.ts";
import { queryVariationReplies } from "./query-variations.ts";
import { oneTurnReplies, relevanceReplies, twoTurnReplies } from "./rerank-judgments.ts";
import { retrievalJudgeReplies } from "./retrieval-judge.ts";
import { rubricReplies } from "./rubric.ts";
import type { ReaderName, ScoredReply } from "./score.ts";
import { similarityJudgeReplies } from "./similarity-judge.ts";
import { totScoreReplies } from "./tot.ts";
import type { CorpusReply } from "./types.ts";

function as<T>(
  reader: ReaderName,
  corpus: readonly CorpusReply<T>[],
  expected: (value: T) => unknown = (value) => value,
): ScoredReply[] {
  return corpus.map((entry) => ({
    category: entry.style,
    reader,
    reply: entry.reply,
    expected: entry.expected === null ? null : expected(entry.expected),
  }));
}

/** Every tuned reply (the per-parser corpora and the issues #32 and #42 categories), through `score.ts`. */
export const tunedReplies: ScoredReply[] = [
  ...as("retrieval", retrievalJudgeReplies),
  ...as("similarity", similarityJudgeReplies),
  ...as("answer", answerJudgeReplies),
  ...as("pairwise", pairwiseJudgeReplies),
  ...as("rerank-relevance", relevanceReplies),
  ...as("rerank-one-turn", oneTurnReplies),
  ...as("rerank-two-turn", twoTurnReplies),
  ...as("variations", queryVariationReplies, (queries) => queries.length > 0 ? queries : null),
  ...as("rubric", rubricReplies, (rubric) => rubric.criteria.map(([name]) => name)),
  ...as("item-ranking", rankingReplies),
  ...as("item-selection", selectionReplies),
  ...as("item-pointwise", pointwiseReplies),
  ...as("tot-score", totScoreReplies),
  ...categoryReplies,
  ...issue42Replies,
];

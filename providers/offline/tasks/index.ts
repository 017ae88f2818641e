import { answerTask } from "./answer.ts";
import { answerStructuredTask } from "./answer-structured.ts";
import { genericTask } from "./generic.ts";
import { itemAnswerImplicitTask, itemAnswerTask } from "./item-answer.ts";
import {
  itemRelevanceRankingTask,
  itemUtilityPointwiseTask,
  itemUtilityRankingTask,
  itemUtilitySelectionTask,
} from "./item-judge.ts";
import { judgeAnswerTask } from "./judge-answer.ts";
import { judgePairwiseTask } from "./judge-pairwise.ts";
import { judgeRetrievalTask } from "./judge-retrieval.ts";
import { judgeSimilarityTask } from "./judge-similarity.ts";
import { queryVariationsTask } from "./query-variations.ts";
import { rerankTask } from "./rerank.ts";
import { rerankRelevanceTask } from "./rerank-relevance.ts";
import { rubricTask } from "./rubric.ts";
import { rubricRelevanceTask } from "./rubric-relevance.ts";
import { standaloneQuestionTask } from "./standalone-question.ts";
import { syntheticQueriesTask } from "./synthetic-queries.ts";
import { totAgentTask, totScoreTask, totThresholdTask } from "./tot-tasks.ts";
import type { OfflineTask } from "./types.ts";

/**
 * The offline model's tasks by prompt id (see `prompts/`). Adding a task is
 * one line here plus its file; ids without a task get the generic reply.
 */
export const offlineTasks: Readonly<Record<string, OfflineTask>> = {
  answer: answerTask,
  "answer-structured": answerStructuredTask,
  "item-answer": itemAnswerTask,
  "item-answer-implicit": itemAnswerImplicitTask,
  "item-relevance-ranking": itemRelevanceRankingTask,
  "item-utility-pointwise": itemUtilityPointwiseTask,
  "item-utility-ranking": itemUtilityRankingTask,
  "item-utility-selection": itemUtilitySelectionTask,
  "judge-answer": judgeAnswerTask,
  "judge-pairwise": judgePairwiseTask,
  "judge-retrieval": judgeRetrievalTask,
  "judge-similarity": judgeSimilarityTask,
  "query-variations": queryVariationsTask,
  rerank: rerankTask,
  "rerank-relevance": rerankRelevanceTask,
  rubric: rubricTask,
  "rubric-relevance": rubricRelevanceTask,
  "standalone-question": standaloneQuestionTask,
  "synthetic-queries": syntheticQueriesTask,
  "tot-agent": totAgentTask,
  "tot-quality": totScoreTask,
  "tot-similarity": totScoreTask,
  "tot-threshold": totThresholdTask,
};

/**
 * The task named by an `x-sift-prompt: <id>@<version>` header, and the version.
 *
 * @example
 * taskFor("answer@1").task === answerTask; // true
 */
export function taskFor(header: string | null): { task: OfflineTask; version: number | undefined } {
  const match = /^\s*([\w.-]+)(?:@(\d+))?\s*$/.exec(header ?? "");
  const id = match?.[1] ?? "";
  // hasOwn, so an id like "constructor" cannot reach Object.prototype.
  const task = Object.hasOwn(offlineTasks, id) ? offlineTasks[id] : undefined;
  return {
    task: task ?? genericTask,
    version: match?.[2] === undefined ? undefined : Number(match[2]),
  };
}

import { z } from "zod";
import { judgeAnswerPrompt } from "../../prompts/judge-answer.ts";
import { renderTemplate } from "../../shared/llm/prompt.ts";
import type { Deps } from "../../shared/deps.ts";
import { askJudgeReadably } from "./ask.ts";
import { cachedJudgment, judgeCacheKey } from "./cache.ts";
import { neutralizeJudgeText, oneLine, renderJudgedDocuments } from "./render.ts";
import { addUsage, NO_USAGE } from "./usage.ts";
import { ANSWER_SCALE, lastJsonObject, parseGrade } from "./parse.ts";
import { readLabelled } from "../../shared/llm/read-score.ts";
import { isRefusal, normalizeReply, withoutQuotedText } from "../../shared/llm/reply-text.ts";
import { reviseScores } from "./revise-scores.ts";
import { judgeRetrieval } from "./retrieval.ts";
import type {
  AnswerEvaluation,
  AnswerScores,
  JudgeDocument,
  RelevanceGrade,
  RetrievalJudgment,
} from "../../shared/judge/types.ts";

export type AnswerInput = {
  query: string;
  answer: string;
  documents?: readonly JudgeDocument[] | undefined;
  /** Only documents judged at or above this go into the prompt. Default 1. */
  relevance_threshold?: RelevanceGrade | undefined;
  /** Retrieval judgments already made for `documents`; judged first when absent. */
  judgments?: readonly RetrievalJudgment[] | undefined;
};

// A score off 0-2 is unreadable, never clamped (docs/model-replies.md).
const grade = z.unknown().transform((value) => parseGrade(value, 2)).pipe(z.number());
const lowerKeys = z.record(z.string(), z.unknown()).transform((object) =>
  Object.fromEntries(Object.entries(object).map(([key, value]) => [key.toLowerCase(), value]))
);
const scoresSchema = lowerKeys.pipe(z.object({
  relevance: grade,
  accuracy: grade,
  completeness: grade,
  precision: grade,
  reasoning: z.unknown().optional(),
}));
const responseSchema = z.object({
  reasoning: z.string(),
  relevance: z.number(),
  accuracy: z.number(),
  completeness: z.number(),
  precision: z.number(),
});

const KEYS = ["relevance", "accuracy", "completeness", "precision"] as const;

/**
 * Scores from a reply: the last JSON object with all four keys (any case),
 * each a whole 0-2 (off the scale is no score: never clamped), its
 * reasoning the `reasoning` field or the text before it; else one labelled
 * line or clause per key (`Accuracy: 1`, `**Accuracy:** 1/2`, a table row,
 * `Relevance: 2, Accuracy: 1, …` on one line), each a whole 0-2, the last
 * stated value winning when the reply revises one (`revised`), the
 * reasoning the text's other lines. Normalised first; a refusal, or a key
 * missing or out of range, is no scores at all.
 */
export function readAnswerReply(
  reply: string,
): { scores: AnswerScores; reasoning: string; revised?: true } | undefined {
  const text = normalizeReply(reply);
  if (isRefusal(text)) return undefined;
  const found = lastJsonObject(text, scoresSchema);
  if (found) {
    const { reasoning, ...stated } = found.value;
    const revised = reviseScores(text, stated, found.start);
    return revised && {
      scores: revised.scores,
      reasoning: typeof reasoning === "string"
        ? reasoning.trim()
        : text.slice(0, found.start).trim(),
      ...(revised.revised ? { revised: true as const } : {}),
    };
  }
  const scores: Partial<AnswerScores> = {};
  let revised = false;
  const unquoted = withoutQuotedText(text);
  for (const key of KEYS) {
    const read = readLabelled(unquoted, [key], ANSWER_SCALE);
    if (read === undefined || read === "unsettled") return undefined;
    scores[key] = read.value;
    revised ||= read.revised;
  }
  const final = reviseScores(unquoted, scores as AnswerScores, 0);
  if (!final) return undefined;
  revised ||= final.revised;
  const labelled = new RegExp(`^[\\W_]*(?:${KEYS.join("|")})\\b`, "i");
  const reasoning = text.split(/\r?\n/).filter((line) =>
    !labelled.test(line) && !/^\s*\|?[\s|:-]*$/.test(line) && !/^\s*\|\s*criterion/i.test(line)
  ).join("\n").trim();
  return { scores: final.scores, reasoning, ...(revised ? { revised: true } : {}) };
}

/**
 * The documents a judge sees with their judgments: retrieval judgments are
 * made first unless given, and documents below `threshold` are left out.
 */
export async function relevantDocuments(
  deps: Pick<Deps, "judge" | "cache">,
  input: {
    query: string;
    documents?: readonly JudgeDocument[] | undefined;
    judgments?: readonly RetrievalJudgment[] | undefined;
  },
  threshold: RelevanceGrade,
  signal: AbortSignal | undefined,
) {
  const documents = input.documents ?? [];
  if (documents.length === 0) return { rendered: "", degraded: false, usage: NO_USAGE };
  const judged = input.judgments
    ? { judgments: input.judgments, degraded: false, usage: NO_USAGE }
    : await judgeRetrieval(deps, { query: input.query, documents }, signal);
  const byIndex = new Map(judged.judgments.map((judgment) => [judgment.index, judgment]));
  const kept = documents.flatMap((document, index) => {
    const judgment = byIndex.get(index);
    return judgment && judgment.score !== null && judgment.score >= threshold
      ? [{ document, index, judgment }]
      : [];
  });
  return { rendered: renderJudgedDocuments(kept), degraded: judged.degraded, usage: judged.usage };
}

/**
 * RAGElo's pointwise answer evaluator: relevance, accuracy, completeness and
 * precision, each 0-2, with the documents judged relevant in the prompt.
 * A reply without readable scores is retried once with a correction; still
 * unreadable, `scores` is null, marked degraded.
 */
export async function judgeAnswer(
  deps: Pick<Deps, "judge" | "cache">,
  input: AnswerInput,
  signal?: AbortSignal,
): Promise<AnswerEvaluation> {
  const { judge } = deps;
  const prompt = judgeAnswerPrompt;
  const context = await relevantDocuments(deps, input, input.relevance_threshold ?? 1, signal);
  const user = renderTemplate(prompt.user, {
    documents: context.rendered || prompt.noDocuments,
    query: oneLine(input.query),
    answer: neutralizeJudgeText(input.answer.trim()),
  });
  const key = await judgeCacheKey(prompt, judge, [user]);
  const judged = await cachedJudgment(deps.cache, key, async () => {
    const reply = await askJudgeReadably(judge, prompt, user, {
      schema: z.unknown(),
      responseSchema,
      schemaName: "answer_evaluation",
      signal,
    }, (text) => readAnswerReply(text));
    return reply.read ? { ...reply.read, degraded: false, usage: reply.usage } : {
      scores: null,
      reasoning: "The judge's reply held no readable scores, even after a correction.",
      degraded: true,
      usage: reply.usage,
    };
  });
  return {
    scores: judged.scores,
    reasoning: judged.reasoning,
    ...("revised" in judged && judged.revised ? { revised: true as const } : {}),
    degraded: judged.degraded || context.degraded,
    usage: addUsage(context.usage, judged.usage),
  };
}

import { z } from "zod";
import { judgeSimilarityPrompt } from "../../prompts/judge-similarity.ts";
import { renderTemplate } from "../../shared/llm/prompt.ts";
import type { Deps } from "../../shared/deps.ts";
import { askJudgeReadably } from "./ask.ts";
import { cachedJudgment, judgeCacheKey } from "./cache.ts";
import { neutralizeJudgeText, oneLine } from "./render.ts";
import { withoutScoreLines } from "./parse.ts";
import { readScore, readScoreRevised, type ScoreScale } from "../../shared/llm/read-score.ts";
import type { SimilarityEvaluation } from "../../shared/judge/types.ts";

export const SIMILARITY_MAX = 5;
const MAX_REASON_CHARS = 1000;
/** 0-5, halves and other decimals kept: `Score: 4.5` is 4.5. */
export const SIMILARITY_SCORE_SCALE: ScoreScale = {
  max: SIMILARITY_MAX,
  integer: false,
  labels: ["similarity"],
};

function structuredScore(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 &&
      value <= SIMILARITY_MAX
    ? value
    : typeof value === "string"
    ? readScore(value, SIMILARITY_SCORE_SCALE)
    : undefined;
}

const responseSchema = z.object({ reason: z.string(), score: z.number() });

/** The 0-5 score and reason: a JSON reply's fields, else the last `Score: N` line. */
export function readSimilarityReply(
  text: string,
  object: { reason?: unknown; score?: unknown } | undefined,
): { score: number; reason: string; revised?: true } | undefined {
  const structured = structuredScore(object?.score);
  const read = structured !== undefined
    ? { value: structured, revised: false }
    : readScoreRevised(text, SIMILARITY_SCORE_SCALE);
  if (read === undefined) return undefined;
  const reason = structured !== undefined && typeof object?.reason === "string"
    ? object.reason
    : withoutScoreLines(text);
  return {
    score: read.value,
    reason: oneLine(reason).slice(0, MAX_REASON_CHARS),
    ...(read.revised ? { revised: true as const } : {}),
  };
}

/**
 * REBEL's answer similarity: how closely an answer conveys a reference
 * answer's meaning, 0-5. A reply without a readable score is retried once
 * with a correction; still unreadable, the score is null, degraded.
 */
export async function answerSimilarity(
  deps: Pick<Deps, "judge" | "cache">,
  input: { query?: string | undefined; answer: string; reference: string },
  signal?: AbortSignal,
): Promise<SimilarityEvaluation> {
  const { judge } = deps;
  const prompt = judgeSimilarityPrompt;
  const user = renderTemplate(prompt.user, {
    question: input.query?.trim() ? `Question: ${oneLine(input.query)}\n\n` : "",
    reference: neutralizeJudgeText(input.reference.trim()),
    answer: neutralizeJudgeText(input.answer.trim()),
  });
  const key = await judgeCacheKey(prompt, judge, [user]);
  return await cachedJudgment(deps.cache, key, async () => {
    const reply = await askJudgeReadably(judge, prompt, user, {
      schema: z.object({ reason: z.unknown(), score: z.unknown() }).partial(),
      responseSchema,
      schemaName: "answer_similarity",
      signal,
    }, readSimilarityReply);
    return reply.read ? { ...reply.read, degraded: false, usage: reply.usage } : {
      score: null,
      reason: "The judge's reply held no readable score, even after a correction.",
      degraded: true,
      usage: reply.usage,
    };
  });
}

import { z } from "zod";
import { judgeRetrievalPrompt } from "../../prompts/judge-retrieval.ts";
import { mapSettled } from "../../shared/concurrency.ts";
import type { TokenUsage } from "../../shared/llm/chat.ts";
import { renderTemplate } from "../../shared/llm/prompt.ts";
import type { Deps } from "../../shared/deps.ts";
import { askJudgeReadably } from "./ask.ts";
import { cachedJudgment, judgeCacheKey } from "./cache.ts";
import { oneLine, renderJudgedDocuments } from "./render.ts";
import { addUsage } from "./usage.ts";
import { retrievalPrecision } from "../../shared/judge/precision.ts";
import { parseGrade, RETRIEVAL_SCALE, withoutScoreLines } from "./parse.ts";
import { readScoreRevised } from "../../shared/llm/read-score.ts";
import type {
  JudgeDocument,
  RelevanceGrade,
  RetrievalEvaluation,
  RetrievalJudgment,
} from "../../shared/judge/types.ts";

/** RAGElo sends one document per call; four in flight keeps a provider's rate limits calm. */
export const RETRIEVAL_CONCURRENCY = 4;
const MAX_REASON_CHARS = 500;

const replySchema = z.object({ reason: z.string(), score: z.number() });

type Graded = {
  score: RelevanceGrade | null;
  reason: string;
  revised?: true;
  degraded: boolean;
  usage: TokenUsage;
};

/** Why a judgment has no score: said in its `reason`. */
export const UNREADABLE_REASON =
  "The judge's reply held no readable score, even after a correction: left out of precision.";
const UNREACHABLE_REASON = "The judge could not be reached: left out of precision.";

/** The grade and reason from a reply; structured replies fall back to the text format. */
export function readRetrievalReply(
  text: string,
  object: { reason?: unknown; score?: unknown } | undefined,
): { score: RelevanceGrade; reason: string; revised?: true } | undefined {
  const structured = parseGrade(object?.score, 2);
  const read = structured !== undefined
    ? { value: structured, revised: false }
    : readScoreRevised(text, RETRIEVAL_SCALE);
  if (read === undefined) return undefined;
  const reason = structured !== undefined && typeof object?.reason === "string"
    ? object.reason
    : withoutScoreLines(text);
  return {
    score: read.value as RelevanceGrade,
    reason: oneLine(reason).slice(0, MAX_REASON_CHARS),
    ...(read.revised ? { revised: true as const } : {}),
  };
}

async function gradeDocument(
  deps: Pick<Deps, "judge">,
  query: string,
  document: JudgeDocument,
  signal: AbortSignal | undefined,
): Promise<Graded> {
  const { judge } = deps;
  const prompt = judgeRetrievalPrompt;
  const user = renderTemplate(prompt.user, {
    document: renderJudgedDocuments([{ document, index: 0 }]),
    query: oneLine(query),
  });
  const reply = await askJudgeReadably(judge, prompt, user, {
    schema: z.object({ reason: z.unknown(), score: z.unknown() }).partial(),
    responseSchema: replySchema,
    schemaName: "retrieval_judgment",
    signal,
  }, readRetrievalReply);
  return reply.read ? { ...reply.read, degraded: false, usage: reply.usage } : {
    score: null,
    reason: UNREADABLE_REASON,
    degraded: true,
    usage: reply.usage,
  };
}

/**
 * RAGElo's retrieval evaluator: each document graded 0/1/2 with a reason, one
 * call per document, cached per judge prompt, model, query and document. A
 * document whose call fails or whose reply stays unreadable after one
 * correction has `score: null`, marked degraded; only when every call fails
 * does the error reach the caller. `precision` is REBEL's retrieval
 * precision: the share graded 1 or 2 among the documents with a grade
 * (`excluded` counts the others; null when none has one).
 */
export async function judgeRetrieval(
  deps: Pick<Deps, "judge" | "cache">,
  input: { query: string; documents: readonly JudgeDocument[] },
  signal?: AbortSignal,
): Promise<RetrievalEvaluation> {
  const keys = await Promise.all(
    input.documents.map((document) =>
      judgeCacheKey(judgeRetrievalPrompt, deps.judge, [
        oneLine(input.query),
        document.text,
        document.metadata ?? {},
      ])
    ),
  );
  // A document given twice is judged once (and its tokens counted once).
  const unique = [...new Map(keys.map((key, i) => [key, input.documents[i]!])).entries()];
  const settled = await mapSettled(
    unique,
    RETRIEVAL_CONCURRENCY,
    ([key, document]) =>
      cachedJudgment(deps.cache, key, () => gradeDocument(deps, input.query, document, signal)),
  );
  const failures = settled.filter((outcome) => outcome.status === "rejected");
  if (failures.length > 0 && (signal?.aborted || failures.length === settled.length)) {
    throw failures[0]!.reason;
  }
  const byKey = new Map(unique.map(([key], i) => [key, settled[i]!]));
  const judgments: RetrievalJudgment[] = keys.map((key, index) => {
    const outcome = byKey.get(key)!;
    if (outcome.status === "rejected") {
      return { index, score: null, reason: UNREACHABLE_REASON, degraded: true };
    }
    const { score, reason, degraded, revised } = outcome.value;
    return {
      index,
      score,
      reason,
      ...(degraded ? { degraded: true as const } : {}),
      ...(revised ? { revised: true as const } : {}),
    };
  });
  const usages = settled.flatMap((outcome) =>
    outcome.status === "fulfilled" ? [outcome.value.usage] : []
  );
  return {
    judgments,
    ...retrievalPrecision(judgments),
    degraded: judgments.some((judgment) => judgment.degraded),
    usage: addUsage(...usages),
  };
}

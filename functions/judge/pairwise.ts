import { z } from "zod";
import { judgePairwisePrompt } from "../../prompts/judge-pairwise.ts";
import type { TokenUsage } from "../../shared/llm/chat.ts";
import { renderTemplate } from "../../shared/llm/prompt.ts";
import type { Deps } from "../../shared/deps.ts";
import { relevantDocuments } from "./answer.ts";
import { askJudgeReadably } from "./ask.ts";
import { cachedJudgment, judgeCacheKey } from "./cache.ts";
import { neutralizeJudgeText, oneLine } from "./render.ts";
import { addUsage } from "./usage.ts";
import { parseVerdictValue, swapVerdict } from "./parse.ts";
import { readVerdictRevised } from "./read-verdict.ts";
import type {
  JudgeDocument,
  PairwiseEvaluation,
  RelevanceGrade,
  RetrievalJudgment,
  Verdict,
} from "../../shared/judge/types.ts";

export type PairwiseInput = {
  query: string;
  answer_a: string;
  answer_b: string;
  documents?: readonly JudgeDocument[] | undefined;
  judgments?: readonly RetrievalJudgment[] | undefined;
  /** RAGElo's document_relevance_threshold: documents judged below it are left out. Default 2. */
  relevance_threshold?: RelevanceGrade | undefined;
};

type Game = {
  verdict: Verdict | undefined;
  reasoning: string;
  revised?: boolean;
  usage: TokenUsage;
  degraded: boolean;
};

const responseSchema = z.object({ reasoning: z.string(), verdict: z.enum(["A", "B", "C"]) });

/** The verdict from a reply: the `verdict` field of a JSON reply, else the last `[[X]]` token. */
export function readPairwiseReply(
  text: string,
  object: { verdict?: unknown; reasoning?: unknown } | undefined,
): { verdict: Verdict | undefined; reasoning: string; revised: boolean } {
  const structured = parseVerdictValue(object?.verdict);
  if (structured) {
    return {
      verdict: structured,
      reasoning: typeof object?.reasoning === "string" ? object.reasoning.trim() : "",
      revised: false,
    };
  }
  const read = readVerdictRevised(text);
  return { verdict: read?.verdict, reasoning: text.trim(), revised: read?.revised ?? false };
}

/** One order of one game, as the judge sees it: `first` is Assistant A. */
async function playOrder(
  deps: Pick<Deps, "judge" | "cache">,
  parts: { query: string; documents: string; first: string; second: string },
  signal: AbortSignal | undefined,
): Promise<Game> {
  const { judge } = deps;
  const prompt = judgePairwisePrompt;
  const user = renderTemplate(prompt.user, {
    documents: parts.documents || prompt.noDocuments,
    query: oneLine(parts.query),
    answer_a: neutralizeJudgeText(parts.first.trim()),
    answer_b: neutralizeJudgeText(parts.second.trim()),
  });
  const key = await judgeCacheKey(prompt, judge, [user]);
  return await cachedJudgment(deps.cache, key, async () => {
    const reply = await askJudgeReadably(judge, prompt, user, {
      schema: z.object({ verdict: z.unknown(), reasoning: z.unknown() }).partial(),
      responseSchema,
      schemaName: "pairwise_verdict",
      signal,
    }, (text, object) => {
      const read = readPairwiseReply(text, object);
      return read.verdict ? read : undefined;
    });
    return reply.read ? { ...reply.read, degraded: false, usage: reply.usage } : {
      verdict: undefined,
      reasoning: reply.text.trim(),
      degraded: true,
      usage: reply.usage,
    };
  });
}

/** Two verdicts in the original labels → the game's result: agreement wins, else a tie. */
export function combineVerdicts(first: Verdict, swapped: Verdict) {
  return { winner: first === swapped ? first : "C" as Verdict, orders_disagree: first !== swapped };
}

/**
 * RAGElo's pairwise judge, played in both orders at once to cancel position
 * bias: the second verdict is mapped back to the original labels; the same
 * winner twice wins, a disagreement is a tie (C). An order whose reply has
 * no readable verdict (after one correction) or whose call failed has a
 * null verdict, and the game a null winner, marked degraded: no game, never
 * a tie. If both orders fail the error is thrown.
 */
export async function judgePairwise(
  deps: Pick<Deps, "judge" | "cache">,
  input: PairwiseInput,
  signal?: AbortSignal,
): Promise<PairwiseEvaluation> {
  const context = await relevantDocuments(deps, input, input.relevance_threshold ?? 2, signal);
  const base = { query: input.query, documents: context.rendered };
  const [inOrder, swapped] = await Promise.allSettled([
    playOrder(deps, { ...base, first: input.answer_a, second: input.answer_b }, signal),
    playOrder(deps, { ...base, first: input.answer_b, second: input.answer_a }, signal),
  ]);
  if (inOrder.status === "rejected" && (signal?.aborted || swapped.status === "rejected")) {
    throw inOrder.reason;
  }
  if (swapped.status === "rejected" && signal?.aborted) throw swapped.reason;
  const failed = (): Game => ({
    verdict: undefined,
    reasoning: "The judge could not be reached.",
    usage: { tokens_in: 0, tokens_out: 0 },
    degraded: true,
  });
  const first = inOrder.status === "fulfilled" ? inOrder.value : failed();
  const second = swapped.status === "fulfilled" ? swapped.value : failed();
  const verdicts: [Verdict | null, Verdict | null] = [
    first.verdict ?? null,
    second.verdict ? swapVerdict(second.verdict) : null,
  ];
  const [inA, inB] = verdicts;
  return {
    ...(inA && inB ? combineVerdicts(inA, inB) : { winner: null, orders_disagree: false }),
    verdicts,
    reasoning: `Answer A shown first: ${first.reasoning || "(no reasoning)"}\n\n` +
      `Answer B shown first (the judge saw it as Assistant A): ${
        second.reasoning || "(no reasoning)"
      }`,
    ...(first.revised || second.revised ? { revised: true as const } : {}),
    degraded: first.degraded || second.degraded || context.degraded,
    usage: addUsage(context.usage, first.usage, second.usage),
  };
}

import type { ResilientCache } from "../../shared/cache/resilient.ts";
import { sha256Hex } from "../../shared/hash.ts";
import { completeObject, completeText, type TokenUsage } from "../../shared/llm/chat.ts";
import type { LlmContext } from "../../shared/llm/client.ts";
import {
  neutralizeTags,
  promptTag,
  type PromptTemplate,
  renderTemplate,
} from "../../shared/llm/prompt.ts";
import type { z } from "zod";
import { renderNumberedDocuments } from "../../shared/rerank/render.ts";
import type { JudgeDocument, RelevanceGrade, RetrievalJudgment } from "./types.ts";

export const NO_USAGE: TokenUsage = Object.freeze({ tokens_in: 0, tokens_out: 0 });

export function addUsage(...usages: readonly TokenUsage[]): TokenUsage {
  return {
    tokens_in: usages.reduce((sum, usage) => sum + usage.tokens_in, 0),
    tokens_out: usages.reduce((sum, usage) => sum + usage.tokens_out, 0),
  };
}

const JUDGMENT_TTL_SECONDS = 7 * 24 * 3600;

/** `judge:<prompt>@<version>:<model>:<mode>:<sha256 of the inputs>`. */
export async function judgeCacheKey(
  prompt: Pick<PromptTemplate, "id" | "version">,
  llm: LlmContext,
  inputs: readonly unknown[],
): Promise<string> {
  const mode = llm.structuredOutputs ? "json" : "text";
  return `judge:${promptTag(prompt)}:${llm.model}:${mode}:${await sha256Hex(
    JSON.stringify(inputs),
  )}`;
}

/**
 * A judgment from the cache (its tokens already paid: usage 0), or computed
 * and stored. Degraded results are not stored, so the next run tries again.
 */
export async function cachedJudgment<T extends { usage: TokenUsage; degraded?: boolean }>(
  cache: ResilientCache,
  key: string,
  compute: () => Promise<T>,
): Promise<T> {
  const hit = await cache.get<T>(key);
  if (hit !== undefined) return { ...hit, usage: NO_USAGE };
  const value = await compute();
  if (!value.degraded) await cache.set(key, value, { ttlSeconds: JUDGMENT_TTL_SECONDS });
  return value;
}

/** A question on one line, since the prompts read `Question:` as a line. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/**
 * Text placed inside the judge prompts: our block tags and the relevance
 * note's label are broken, so a document or an answer cannot close its own
 * block, pose as the other answer, or forge a relevance judgment.
 */
export function neutralizeJudgeText(text: string): string {
  return neutralizeTags(text)
    .replace(/<(\/?)\s*(answer(?:_[ab])?|reference|examples)\b/gi, "<$1 $2")
    .replace(/^(\s*)(relevance note\s*:)/gim, "$1> $2");
}

export const GRADE_LABELS: Readonly<Record<RelevanceGrade, string>> = {
  0: "not relevant",
  1: "somewhat relevant",
  2: "very relevant",
};

/**
 * Documents as `Document N:` blocks numbered by their position in the
 * request, each followed by its retrieval judgment when there is one
 * (RAGElo's include_annotations).
 *
 * @example
 * renderJudgedDocuments([{ document: { text: "BM25 ..." }, index: 2, judgment }]);
 * // "Document 3:\nBM25 ...\nRelevance note: very relevant. States the formula."
 */
export function renderJudgedDocuments(
  entries: readonly { document: JudgeDocument; index: number; judgment?: RetrievalJudgment }[],
): string {
  return entries.map(({ document, index, judgment }) => {
    const block = renderNumberedDocuments([{
      ...document,
      text: neutralizeJudgeText(document.text),
    }])
      .replace(/^Document 1:/, `Document ${index + 1}:`);
    return judgment
      ? `${block}\nRelevance note: ${GRADE_LABELS[judgment.score]}. ${oneLine(judgment.reason)}`
      : block;
  }).join("\n\n");
}

/** A judge prompt: its system text has a `{{format}}` slot for the output mode. */
export type JudgePrompt = PromptTemplate & { formatJson: string; formatText: string };

/**
 * One call to the judge model in its output mode: json_schema when
 * structured outputs are on (the reply parsed with `schema`, leniently),
 * the prompt's text format otherwise (`object` undefined). Readers then take
 * what they can from `object` or `text`.
 */
export async function askJudge<T>(
  judge: LlmContext,
  prompt: JudgePrompt,
  user: string,
  options: {
    schema: z.ZodType<T>;
    responseSchema: z.ZodType;
    schemaName: string;
    signal: AbortSignal | undefined;
  },
): Promise<{ text: string; object: T | undefined; usage: TokenUsage }> {
  const request = {
    prompt,
    system: renderTemplate(prompt.system, {
      format: judge.structuredOutputs ? prompt.formatJson : prompt.formatText,
    }),
    user,
    signal: options.signal,
  };
  if (!judge.structuredOutputs) {
    return { ...(await completeText(judge, request)), object: undefined };
  }
  return await completeObject(judge, { ...request, ...options });
}

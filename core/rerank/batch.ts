import { z } from "zod";
import {
  type ChatRequest,
  completeObject,
  completeText,
  type TokenUsage,
} from "../../shared/llm/chat.ts";
import { correctionTurns, sumUsage } from "../correction.ts";
import { correctionPrompt } from "../../prompts/correction.ts";
import type { LlmContext } from "../../shared/llm/client.ts";
import { promptTag, renderTemplate } from "../../shared/llm/prompt.ts";
import { rerankPrompt } from "../../prompts/rerank.ts";
import { rerankRelevancePrompt } from "../../prompts/rerank-relevance.ts";
import { mapSettled } from "../../shared/concurrency.ts";
import { inSpan } from "../../shared/tracing/spans.ts";
import { readJudgments } from "../../shared/rerank/parse.ts";
import {
  renderRelevanceFormat,
  renderRelevanceSystem,
  renderRerankFormat,
  renderRerankSystem,
  renderRerankUser,
} from "./render.ts";
import type { Rubric } from "../../shared/rerank/rubric.ts";
import { type Discarded, type RankedDocument, rankJudgments } from "../../shared/rerank/score.ts";
import type { Judgment, Readings, RerankDocument } from "../../shared/rerank/types.ts";
import {
  isTrustedSource,
  withoutAuthority,
  withoutClaimedAuthority,
} from "../../shared/rerank/source-trust.ts";

export const DEFAULT_BATCH_CONCURRENCY = 4;

export type BatchRerankInput = {
  query: string;
  documents: readonly RerankDocument[];
  rubric: Rubric;
  /** `rubric`: multi-criteria prompt from the rubric; `relevance`: the LLMRerank-style baseline. */
  prompt: "rubric" | "relevance";
  explain: boolean;
  batchSize: number;
  concurrency: number;
  /**
   * `SOURCE_TRUST`'s hosts: where set, only documents from them keep their
   * authors and source in the prompt and score on authority criteria.
   */
  trustedSources?: readonly string[] | undefined;
};

export type BatchRerankResult = {
  ranked: RankedDocument[];
  discarded: Discarded[];
  degraded: boolean;
  /** Why batches degraded, for the response's `warnings`. */
  warnings: string[];
  usage: TokenUsage & { llm_calls: number };
  /** Scores asked of the model, and those unreadable after the correction. */
  readings: Readings;
};

/** The json_schema sent to the provider: plain types, the rubric's criteria as fixed keys. */
function responseSchema(rubric: Rubric, prompt: "rubric" | "relevance", explain: boolean) {
  const entry: Record<string, z.ZodType> = { doc: z.number().int(), relevance: z.number() };
  if (prompt === "rubric") {
    entry.criteria = z.object(Object.fromEntries(rubric.criteria.map((c) => [c.name, z.number()])));
  }
  if (explain) entry.reason = z.string();
  return z.object({ documents: z.array(z.object(entry)) });
}

/** What a batch's reply left unread, as the correction says it; `undefined` when all is read. */
function unreadProblem(judgments: readonly Judgment[]): string | undefined {
  const read = judgments.filter((judgment) => !judgment.unreadable);
  if (read.length === 0) return correctionPrompt.noScores;
  const unread = judgments.filter((judgment) => judgment.unreadable);
  if (unread.length === 0) return undefined;
  return renderTemplate(correctionPrompt.unreadableDocuments, {
    documents: unread.map((judgment) => judgment.position + 1).join(", "),
  });
}

/** The second reply's judgments, and the first's for documents the second did not read. */
function mergeRetry(first: readonly Judgment[], second: readonly Judgment[]): Judgment[] {
  const readAgain = new Set(
    second.filter((judgment) => !judgment.unreadable).map((judgment) => judgment.position),
  );
  const kept = first.filter((judgment) =>
    !judgment.unreadable && !readAgain.has(judgment.position)
  );
  const merged = [...second.filter((judgment) => !judgment.unreadable), ...kept];
  const known = new Set(merged.map((judgment) => judgment.position));
  const stillUnread = [...first, ...second].filter((judgment) =>
    judgment.unreadable && !known.has(judgment.position) && known.add(judgment.position)
  );
  return [...merged, ...stillUnread];
}

async function judgeBatch(
  llm: LlmContext,
  input: BatchRerankInput,
  documents: readonly RerankDocument[],
  signal: AbortSignal | undefined,
): Promise<{ judgments: Judgment[]; usage: TokenUsage; llmCalls: number }> {
  const options = { structured: llm.structuredOutputs, explain: input.explain };
  const request = {
    prompt: input.prompt === "rubric" ? rerankPrompt : rerankRelevancePrompt,
    system: input.prompt === "rubric"
      ? renderRerankSystem(input.rubric, options)
      : renderRelevanceSystem(options),
    user: renderRerankUser(input.query, documents),
    signal,
  };
  const criteria = input.prompt === "rubric" ? input.rubric.criteria : [];
  const ask = async (followUp?: ChatRequest["followUp"]) => {
    if (llm.structuredOutputs) {
      return await completeObject(llm, {
        ...request,
        followUp,
        schema: z.unknown(),
        responseSchema: responseSchema(input.rubric, input.prompt, input.explain),
        schemaName: "rerank",
      });
    }
    return await completeText(llm, { ...request, followUp });
  };
  // A provider may ignore the requested format: try JSON, then the text lines.
  const first = await ask();
  const judgments = readJudgments(first.text, documents.length, criteria);
  const problem = unreadProblem(judgments);
  if (problem === undefined) return { judgments, usage: first.usage, llmCalls: 1 };
  // One correction turn: the reply, what could not be read, and the format again.
  const format = input.prompt === "rubric"
    ? renderRerankFormat(input.rubric, options)
    : renderRelevanceFormat(options);
  const second = await ask(correctionTurns(first.text, problem, format));
  const retried = readJudgments(second.text, documents.length, criteria);
  return {
    judgments: mergeRetry(judgments, retried),
    usage: sumUsage(first.usage, second.usage),
    llmCalls: 2,
  };
}

/**
 * The one scoring path of every LLM rerank strategy: documents go out in
 * batches (concurrently, under a limit), each batch's reply is parsed
 * defensively, final scores are computed in code, and all batches merge by
 * final score. A batch that fails, or whose reply has nothing usable, keeps
 * its documents in retrieval order after the scored ones, marked degraded;
 * the other batches are unaffected.
 */
export async function rerankInBatches(
  llm: LlmContext,
  input: BatchRerankInput,
  signal?: AbortSignal,
): Promise<BatchRerankResult> {
  const batches: number[][] = [];
  for (let start = 0; start < input.documents.length; start += input.batchSize) {
    batches.push(
      Array.from(
        { length: Math.min(input.batchSize, input.documents.length - start) },
        (_, i) => start + i,
      ),
    );
  }
  const trusted = input.trustedSources;
  const untrusted = (index: number) =>
    trusted !== undefined && !isTrustedSource(input.documents[index]!.metadata, trusted);
  const shown = (index: number) =>
    untrusted(index) ? withoutClaimedAuthority(input.documents[index]!) : input.documents[index]!;
  const settled = await mapSettled(
    batches,
    input.concurrency,
    (indices, batchNumber) =>
      inSpan("sift.rerank.batch", {
        "sift.rerank.batch": batchNumber,
        "sift.rerank.batch_size": indices.length,
        "sift.rerank.prompt": input.prompt,
      }, () => judgeBatch(llm, input, indices.map(shown), signal)),
  );
  const scored: { index: number; judgment: Judgment }[] = [];
  const unscored: Discarded[] = [];
  const degradedIndices: number[] = [];
  const warnings: string[] = [];
  const usage = { tokens_in: 0, tokens_out: 0, llm_calls: 0 };
  const readings: Readings = { asked: 0, unreadable: 0 };
  settled.forEach((outcome, batchNumber) => {
    const indices = batches[batchNumber]!;
    const range = `documents ${indices[0]}-${indices.at(-1)}`;
    if (outcome.status === "rejected") {
      if (signal?.aborted) throw outcome.reason;
      usage.llm_calls += 1;
      degradedIndices.push(...indices);
      warnings.push(`${range}: the model call failed; kept in retrieval order`);
      return;
    }
    usage.tokens_in += outcome.value.usage.tokens_in;
    usage.tokens_out += outcome.value.usage.tokens_out;
    usage.llm_calls += outcome.value.llmCalls;
    const dropped = outcome.value.judgments.filter((judgment) => judgment.dropped);
    for (const judgment of dropped) {
      unscored.push({
        index: indices[judgment.position]!,
        reason: "the model said to ignore this document",
      });
    }
    if (dropped.length > 0) {
      warnings.push(
        `${range}: ${dropped.length} document(s) left out: the model said to ignore them`,
      );
    }
    const revised = outcome.value.judgments.filter((judgment) => judgment.revised).length;
    if (revised > 0) {
      warnings.push(
        `${range}: ${revised} score(s) revised in the model's reply; the last stated stands`,
      );
    }
    const live = outcome.value.judgments.filter((judgment) => !judgment.dropped);
    const unreadCount = live.filter((judgment) => judgment.unreadable).length;
    // A reply with nothing usable leaves every document of its batch unread.
    const noneRead = live.length === 0 ? dropped.length === 0 : unreadCount === live.length;
    readings.asked += indices.length;
    readings.unreadable += noneRead ? indices.length - dropped.length : unreadCount;
    if (live.length === 0 ? dropped.length === 0 : live.every((judgment) => judgment.unreadable)) {
      const droppedAt = new Set(dropped.map((judgment) => indices[judgment.position]!));
      degradedIndices.push(...indices.filter((index) => !droppedAt.has(index)));
      warnings.push(`${range}: nothing usable in the model's reply; kept in retrieval order`);
      return;
    }
    const judged = new Set(outcome.value.judgments.map((j) => j.position));
    const unreadable = outcome.value.judgments.filter((judgment) => judgment.unreadable);
    if (unreadable.length > 0) {
      degradedIndices.push(...unreadable.map((judgment) => indices[judgment.position]!));
      warnings.push(
        `${range}: ${unreadable.length} score(s) unreadable in the model's reply; ` +
          "those documents kept in retrieval order",
      );
    }
    for (const judgment of outcome.value.judgments) {
      if (judgment.unreadable || judgment.dropped) continue;
      const index = indices[judgment.position]!;
      scored.push({ index, judgment: untrusted(index) ? withoutAuthority(judgment) : judgment });
    }
    indices.forEach((index, position) => {
      if (!judged.has(position)) unscored.push({ index, reason: "not ranked by the model" });
    });
  });
  const { kept, discarded } = rankJudgments(scored, input.rubric);
  return {
    ranked: [
      ...kept,
      ...degradedIndices.map((index) => ({
        index,
        scores: { relevance: null, criteria: {}, final: 0 },
        degraded: true as const,
      })),
    ],
    discarded: [...discarded, ...unscored].sort((x, y) => x.index - y.index),
    degraded: degradedIndices.length > 0,
    warnings,
    usage,
    readings,
  };
}

/** Prompt ids and versions a batch rerank depends on, for cache keys. */
export function rerankPromptTags(): string {
  return `${promptTag(rerankPrompt)},${promptTag(rerankRelevancePrompt)}`;
}

import type { z } from "zod";
import type { LlmContext } from "../../../shared/llm/client.ts";
import { mapSettled } from "../../../shared/concurrency.ts";
import { DEFAULT_BATCH_CONCURRENCY } from "../../../core/rerank/batch.ts";
import type { RerankDocument } from "../../../shared/rerank/types.ts";
import { itemAnswerPrompt } from "../../../prompts/item-answer.ts";
import { itemAnswerImplicitPrompt } from "../../../prompts/item-answer-implicit.ts";
import { itemRelevanceRankingPrompt } from "../../../prompts/item-relevance-ranking.ts";
import { itemUtilityPointwisePrompt } from "../../../prompts/item-utility-pointwise.ts";
import { itemUtilityRankingPrompt } from "../../../prompts/item-utility-ranking.ts";
import { itemUtilitySelectionPrompt } from "../../../prompts/item-utility-selection.ts";
import { ask, type Ledger } from "./ask.ts";
import {
  answerReplySchema,
  rankingReplySchema,
  readAnswer,
  readRankingReply,
  readSelectionReply,
  readVerdict,
  selectionReplySchema,
  verdictReplySchema,
} from "./read.ts";
import { renderStep, type StepPrompt } from "./render.ts";
import { renderTemplate } from "../../../shared/llm/prompt.ts";
import { correctionPrompt } from "../../../prompts/correction.ts";

/** What every step of one ITEM run shares. Indices are into `documents`, from 0. */
export type ItemContext = {
  llm: LlmContext;
  ledger: Ledger;
  query: string;
  documents: readonly RerankDocument[];
  signal: AbortSignal | undefined;
};

type Prompt = StepPrompt & { id: string; version: number };

async function call<T>(
  context: ItemContext,
  prompt: Prompt,
  presented: readonly number[],
  answer: string | undefined,
  reply: { schema: z.ZodType; name: string },
  reading: { read: (text: string) => T | undefined; problem: string },
): Promise<T | undefined> {
  const rendered = renderStep(prompt, {
    documents: presented.map((index) => context.documents[index]!),
    query: context.query,
    answer,
    structured: context.llm.structuredOutputs,
  });
  const format = renderTemplate(
    context.llm.structuredOutputs ? prompt.formatJson : prompt.formatText,
    { count: presented.length },
  );
  return await ask(
    context.llm,
    context.ledger,
    {
      prompt,
      ...rendered,
      responseSchema: reply.schema,
      schemaName: reply.name,
    },
    context.signal,
    { ...reading, format },
  );
}

/** a_t = f_a(q, U_{t-1}): a pseudo-answer from the passages judged useful so far. */
export async function pseudoAnswer(
  context: ItemContext,
  form: "explicit" | "implicit",
  passages: readonly number[],
): Promise<string | undefined> {
  const prompt = form === "explicit" ? itemAnswerPrompt : itemAnswerImplicitPrompt;
  return await call(context, prompt, passages, undefined, {
    schema: answerReplySchema,
    name: "pseudo_answer",
  }, { read: readAnswer, problem: correctionPrompt.unreadable });
}

/** R_t = f_r(q, R_{t-1}, a_t), or A_r's utility ranking: every document, best first. */
export async function rankDocuments(
  context: ItemContext,
  kind: "relevance" | "utility",
  presented: readonly number[],
  answer: string,
): Promise<number[] | undefined> {
  const prompt = kind === "relevance" ? itemRelevanceRankingPrompt : itemUtilityRankingPrompt;
  const positions = await call(context, prompt, presented, answer, {
    schema: rankingReplySchema,
    name: `${kind}_ranking`,
  }, {
    read: (text) => readRankingReply(text, presented.length),
    problem: correctionPrompt.noRanking,
  });
  return positions?.map((position) => presented[position]!);
}

/** U_t = f_l(q, R_t, a_t): the listwise utility set, in the model's order. */
export async function selectUseful(
  context: ItemContext,
  presented: readonly number[],
  answer: string,
): Promise<number[] | undefined> {
  const positions = await call(context, itemUtilitySelectionPrompt, presented, answer, {
    schema: selectionReplySchema,
    name: "utility_selection",
  }, {
    read: (text) => readSelectionReply(text, presented.length),
    problem: correctionPrompt.noSelection,
  });
  return positions?.map((position) => presented[position]!);
}

/**
 * U_t = {p | f_p(q, p, a_t) = 1}: one call per document, concurrently under
 * the rerank batches' limit. Each verdict is `undefined` when its reply was
 * unusable, even after a correction.
 */
export async function judgeEach(
  context: ItemContext,
  indices: readonly number[],
  answer: string,
): Promise<(boolean | undefined)[]> {
  const settled = await mapSettled(
    indices,
    DEFAULT_BATCH_CONCURRENCY,
    async (index) =>
      await call(context, itemUtilityPointwisePrompt, [index], answer, {
        schema: verdictReplySchema,
        name: "utility_verdict",
      }, { read: readVerdict, problem: correctionPrompt.noVerdict }),
  );
  return settled.map((outcome) => {
    // ask() turns every failure but cancellation into undefined.
    if (outcome.status === "rejected") throw outcome.reason;
    return outcome.value;
  });
}

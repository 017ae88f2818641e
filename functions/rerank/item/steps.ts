import type { z } from "zod";
import type { LlmContext } from "../../../shared/llm/client.ts";
import { mapSettled } from "../../../shared/concurrency.ts";
import { DEFAULT_BATCH_CONCURRENCY } from "../../../shared/rerank/batch.ts";
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

/** What every step of one ITEM run shares. Indices are into `documents`, from 0. */
export type ItemContext = {
  llm: LlmContext;
  ledger: Ledger;
  query: string;
  documents: readonly RerankDocument[];
  signal: AbortSignal | undefined;
};

type Prompt = StepPrompt & { id: string; version: number };

async function call(
  context: ItemContext,
  prompt: Prompt,
  presented: readonly number[],
  answer: string | undefined,
  reply: { schema: z.ZodType; name: string },
): Promise<string | undefined> {
  const rendered = renderStep(prompt, {
    documents: presented.map((index) => context.documents[index]!),
    query: context.query,
    answer,
    structured: context.llm.structuredOutputs,
  });
  return await ask(context.llm, context.ledger, {
    prompt,
    ...rendered,
    responseSchema: reply.schema,
    schemaName: reply.name,
  }, context.signal);
}

/** a_t = f_a(q, U_{t-1}): a pseudo-answer from the passages judged useful so far. */
export async function pseudoAnswer(
  context: ItemContext,
  form: "explicit" | "implicit",
  passages: readonly number[],
): Promise<string | undefined> {
  const prompt = form === "explicit" ? itemAnswerPrompt : itemAnswerImplicitPrompt;
  const reply = await call(context, prompt, passages, undefined, {
    schema: answerReplySchema,
    name: "pseudo_answer",
  });
  return reply === undefined ? undefined : readAnswer(reply);
}

/** R_t = f_r(q, R_{t-1}, a_t), or A_r's utility ranking: every document, best first. */
export async function rankDocuments(
  context: ItemContext,
  kind: "relevance" | "utility",
  presented: readonly number[],
  answer: string,
): Promise<number[] | undefined> {
  const prompt = kind === "relevance" ? itemRelevanceRankingPrompt : itemUtilityRankingPrompt;
  const reply = await call(context, prompt, presented, answer, {
    schema: rankingReplySchema,
    name: `${kind}_ranking`,
  });
  const positions = reply === undefined ? undefined : readRankingReply(reply, presented.length);
  return positions?.map((position) => presented[position]!);
}

/** U_t = f_l(q, R_t, a_t): the listwise utility set, in the model's order. */
export async function selectUseful(
  context: ItemContext,
  presented: readonly number[],
  answer: string,
): Promise<number[] | undefined> {
  const reply = await call(context, itemUtilitySelectionPrompt, presented, answer, {
    schema: selectionReplySchema,
    name: "utility_selection",
  });
  const positions = reply === undefined ? undefined : readSelectionReply(reply, presented.length);
  return positions?.map((position) => presented[position]!);
}

/**
 * U_t = {p | f_p(q, p, a_t) = 1}: one call per document, concurrently under
 * the rerank batches' limit. Each verdict is `undefined` when its reply was
 * unusable.
 */
export async function judgeEach(
  context: ItemContext,
  indices: readonly number[],
  answer: string,
): Promise<(boolean | undefined)[]> {
  const settled = await mapSettled(indices, DEFAULT_BATCH_CONCURRENCY, async (index) => {
    const reply = await call(context, itemUtilityPointwisePrompt, [index], answer, {
      schema: verdictReplySchema,
      name: "utility_verdict",
    });
    return reply === undefined ? undefined : readVerdict(reply);
  });
  return settled.map((outcome) => {
    // ask() turns every failure but cancellation into undefined.
    if (outcome.status === "rejected") throw outcome.reason;
    return outcome.value;
  });
}

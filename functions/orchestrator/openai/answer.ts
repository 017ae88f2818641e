import type { CostUsd } from "../../../shared/cost/cost.ts";
import { pricedSteps } from "../../../shared/cost/steps.ts";
import type { ResilientCache } from "../../../shared/cache/resilient.ts";
import type { LlmContext } from "../../../shared/llm/client.ts";
import type { Pipeline } from "../../../shared/pipeline.ts";
import type { AnswerFormat } from "../../../shared/structured-output/format.ts";
import { StepClock, type StepRecord } from "../../../shared/steps/clock.ts";
import type { StepContext } from "../../../shared/steps/transport.ts";
import type { SearchHit } from "../../../shared/vector/port.ts";
import { rerankScores } from "../events.ts";
import { runQuery } from "../query.ts";
import { annotate, type Source, sourcesOf, type UrlCitation } from "./citations.ts";
import type { Conversation } from "./conversation.ts";
import { standaloneQuestion } from "./rewrite.ts";

export type ChatUsage = {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  /** USD over every step; null when a step's model has no known price. */
  cost_usd: CostUsd;
};

export type ChatOutcome = {
  /** Exactly the answer's deltas, joined: annotation indices point into it. */
  content: string;
  annotations: UrlCitation[];
  sources: Source[];
  usage: ChatUsage;
  /** sift's account: the question the pipeline answered, and each step's time and tokens. */
  sift: { query: string; rewritten: boolean; steps: StepRecord[] };
};

/** Tokens and their cost over every step, the rewrite included. */
function usageOf(steps: readonly StepRecord[], cost: CostUsd): ChatUsage {
  const prompt = steps.reduce((sum, step) => sum + step.tokens_in, 0);
  const completion = steps.reduce((sum, step) => sum + step.tokens_out, 0);
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    cost_usd: cost,
  };
}

/**
 * A chat turn through the `/v1/query` pipeline: with earlier turns, the
 * question is first rewritten to stand alone (one LLM call, timed as the
 * `rewrite` step); then `runQuery` runs the preset's pipeline and every answer
 * delta goes to `onDelta` as it arrives. `context.signal` cancels it all.
 */
export async function answerChat(
  deps: { context: StepContext; llm: LlmContext; cache: ResilientCache },
  input: {
    conversation: Conversation;
    pipeline: Pipeline;
    answerFormat?: AnswerFormat | undefined;
    /** Retrieval in place of the pipeline's, for the question as it stands alone (`file_search`). */
    retrieve?: ((query: string) => Promise<SearchHit[]>) | undefined;
  },
  onDelta: (text: string) => Promise<void>,
): Promise<ChatOutcome> {
  const clock = new StepClock();
  const { question, history } = input.conversation;
  const rewrite = history.length === 0 ? undefined : await clock.run(
    "rewrite",
    "in-process",
    () => standaloneQuestion(deps, { question, history }, deps.context.signal),
    (result) => result.usage,
  );
  const query = rewrite?.question ?? question;

  let content = "";
  let documents: readonly SearchHit[] = [];
  let scores = new Map<string, number>();
  await runQuery(deps.context, {
    query,
    pipeline: input.pipeline,
    answerFormat: input.answerFormat,
    retrieve: input.retrieve && (() => input.retrieve!(query)),
    onAnswerDocuments: (given) => (documents = given),
  }, async (event, data) => {
    if (event === "rerank-end") scores = rerankScores(data);
    if (event === "answer-delta" && data.text) {
      content += data.text;
      await onDelta(data.text);
    }
  }, clock);

  const sources = sourcesOf(documents, scores);
  const priced = pricedSteps(clock.steps, deps.context.config);
  return {
    content,
    annotations: annotate(content, sources, input.pipeline.namespace),
    sources,
    usage: usageOf(priced.steps, priced.cost_usd),
    sift: { query, rewritten: rewrite?.rewritten ?? false, steps: priced.steps },
  };
}

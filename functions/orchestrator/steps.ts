import { z } from "zod";
import { costOf, type CostUsd } from "../../shared/cost/cost.ts";
import type { TokenUsage } from "../../shared/llm/chat.ts";
import type { AnswerFormat } from "../../shared/structured-output/format.ts";
import type { Pipeline } from "../../shared/pipeline.ts";
import type { Rubric } from "../../shared/rerank/rubric.ts";
import type { ItemOptions } from "../../shared/rerank/item-options.ts";
import type { TotOptions } from "../../shared/rerank/tot/options.ts";
import { callStep, StepError, streamStep } from "../../shared/steps/call.ts";
import type { StepContext, StepTransport } from "../../shared/steps/transport.ts";
import type { SearchHit } from "../../shared/vector/port.ts";

/*
 * The orchestrator's view of the functions it composes: each call is a POST
 * to the function's public route, with a minimal schema for what must come
 * back (the rest of the reply is passed through untouched).
 */

const usageSchema = z.object({ tokens_in: z.number(), tokens_out: z.number() });

const hitSchema = z.looseObject({
  id: z.string(),
  doc_id: z.string(),
  text: z.string(),
  score: z.number(),
  metadata: z.looseObject({ doc_id: z.string(), chunk_index: z.number() }),
});

const searchReplySchema = z.object({
  results: z.array(hitSchema),
  degraded: z.literal(true).optional(),
  reason: z.string().optional(),
  // Optional: a search function deployed before it reported its embedding tokens.
  usage: usageSchema.optional(),
});

const fuseReplySchema = z.looseObject({
  queries: z.array(z.object({ text: z.string(), origin: z.enum(["original", "variation"]) })),
  results: z.array(hitSchema),
  degraded: z.boolean(),
  reason: z.string().optional(),
  usage: usageSchema,
});

const rubricReplySchema = z.looseObject({
  // Checked by the rerank function when the rubric goes back to it.
  rubric: z.looseObject({ criteria: z.array(z.looseObject({ name: z.string() })) }),
  degraded: z.boolean(),
  repairs: z.array(z.string()).optional(),
  usage: usageSchema,
});

const rerankReplySchema = z.looseObject({
  results: z.array(z.looseObject({ index: z.number().int().min(0) })),
  discarded: z.array(z.unknown()),
  rubric: z.unknown().optional(),
  degraded: z.boolean(),
  warnings: z.array(z.string()).optional(),
  usage: z.looseObject({ tokens_in: z.number(), tokens_out: z.number() }),
});

const answerEndSchema = z.looseObject({
  answer: z.string(),
  // What the chat and MCP routes read of each citation; the rest passes through.
  citations: z.array(z.looseObject({ index: z.number().int(), label: z.string().optional() })),
  answered: z.boolean(),
});

export type Retrieved = {
  queries: { text: string; origin: "original" | "variation" }[];
  results: SearchHit[];
  degraded?: true;
  /** Why retrieval degraded (BM25 alone, or no query variations). */
  reason?: string;
  /** Tokens; the search step prices itself (the embedding model), fusion is priced as the LLM. */
  usage: TokenUsage & { cost_usd?: CostUsd };
};

type SearchOptions = {
  query: string;
  retrieval: Pipeline["retrieval"];
  namespace: string;
  filter?: Pipeline["filter"];
};

function searchBody(options: SearchOptions) {
  return {
    query: options.query,
    top_k: options.retrieval.top_k,
    mode: options.retrieval.mode,
    namespace: options.namespace,
    ...(options.filter ? { filter: options.filter } : {}),
  };
}

/**
 * The search step's tokens are its query's embedding: priced at the
 * embedding model, not the answering model every other step is priced at.
 */
function searchUsage(usage: TokenUsage | undefined, context: StepContext) {
  const tokens = usage ?? { tokens_in: 0, tokens_out: 0 };
  const { embeddings, prices } = context.config;
  return { ...tokens, cost_usd: costOf(embeddings.model, tokens, prices) };
}

/** `POST /v1/search`: one query's ranking. */
export async function searchStep(
  transport: StepTransport,
  context: StepContext,
  options: SearchOptions,
): Promise<Retrieved> {
  const reply = await callStep(transport, "/v1/search", searchBody(options), {
    schema: searchReplySchema,
    context,
    timeoutMs: context.config.steps.timeoutMs,
  });
  return {
    queries: [{ text: options.query, origin: "original" }],
    results: reply.results as SearchHit[],
    ...(reply.degraded ? { degraded: true as const, reason: reply.reason ?? "degraded" } : {}),
    usage: searchUsage(reply.usage, context),
  };
}

/** `POST /v1/fuse`: RAG-Fusion's variations, each retrieved, fused by RRF. */
export async function fuseStep(
  transport: StepTransport,
  context: StepContext,
  options: SearchOptions,
): Promise<Retrieved> {
  const reply = await callStep(transport, "/v1/fuse", {
    ...searchBody(options),
    variations: options.retrieval.fusion,
  }, { schema: fuseReplySchema, context, timeoutMs: context.config.steps.timeoutMs });
  return {
    queries: reply.queries,
    results: reply.results as SearchHit[],
    ...(reply.degraded ? { degraded: true as const, reason: reply.reason ?? "degraded" } : {}),
    usage: reply.usage,
  };
}

export type GeneratedRubric = {
  rubric: Rubric;
  degraded: boolean;
  repairs: string[];
  usage: TokenUsage;
};

/** `POST /v1/rubrics`: REBEL's first turn, from the query alone. */
export async function rubricStep(
  transport: StepTransport,
  context: StepContext,
  options: { query: string; relevanceOnly: boolean; rubricWeights?: boolean },
): Promise<GeneratedRubric> {
  const reply = await callStep(transport, "/v1/rubrics", {
    query: options.query,
    relevance_only: options.relevanceOnly,
    // Left out, every criterion weighs REBEL's 0.5.
    ...(options.rubricWeights ? { weights: "rubric" } : {}),
  }, { schema: rubricReplySchema, context, timeoutMs: context.config.steps.timeoutMs });
  return {
    rubric: reply.rubric as Rubric,
    degraded: reply.degraded,
    repairs: reply.repairs ?? [],
    usage: reply.usage,
  };
}

export type RerankBody = {
  query: string;
  documents: { id: string; text: string; metadata: Record<string, unknown> }[];
  strategy: string;
  top_n: number;
  rubric?: Rubric | undefined;
  weights?: number | Record<string, number> | "rubric" | undefined;
  explain: boolean;
  batch_size: number;
  item?: ItemOptions | undefined;
  tot?: TotOptions | undefined;
  prefilter?: { model: string; top_n: number } | undefined;
};

export type Reranked = z.infer<typeof rerankReplySchema>;

/** `POST /v1/rerank`: per-criterion scores, computed into a final score by the function. */
export async function rerankStep(
  transport: StepTransport,
  context: StepContext,
  body: RerankBody,
): Promise<Reranked> {
  return await callStep(transport, "/v1/rerank", body, {
    schema: rerankReplySchema,
    context,
    timeoutMs: context.config.steps.timeoutMs,
  });
}

export type Answered = z.infer<typeof answerEndSchema>;

/**
 * `POST /v1/answer` with `stream: true`: yields answer text as it arrives,
 * returns the whole answer with its citations and the tokens it used.
 */
export async function* answerStep(
  transport: StepTransport,
  context: StepContext,
  body: {
    query: string;
    documents: { id: string; text: string; metadata: unknown }[];
    /** The answer as a JSON object this schema describes (`/v1/answer`'s `json_schema`). */
    json_schema?: AnswerFormat;
  },
): AsyncGenerator<string, { answer: Answered; usage: TokenUsage }> {
  let answer: Answered | undefined;
  let usage: TokenUsage = { tokens_in: 0, tokens_out: 0 };
  const events = streamStep(transport, "/v1/answer", { ...body, stream: true }, {
    context,
    timeoutMs: context.config.steps.timeoutMs,
  });
  for await (const { event, data } of events) {
    if (event === "answer-delta") {
      const text = (data as { text?: unknown } | undefined)?.text;
      if (typeof text === "string") yield text;
    } else if (event === "answer-end") {
      const parsed = answerEndSchema.safeParse(data);
      if (parsed.success) answer = parsed.data;
    } else if (event === "usage") {
      const parsed = usageSchema.safeParse(data);
      if (parsed.success) usage = parsed.data;
    }
  }
  if (!answer) throw new StepError("answer", "its stream ended without an answer");
  return { answer, usage };
}

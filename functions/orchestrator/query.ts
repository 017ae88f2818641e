import type { AnswerFormat } from "../../shared/structured-output/format.ts";
import { strategySpec } from "../../shared/rerank/strategies.ts";
import type { Span } from "@opentelemetry/api";
import { inSpan } from "../../shared/tracing/spans.ts";
import { pricedSteps } from "../../shared/cost/steps.ts";
import { LIMITS } from "../../shared/limits.ts";
import type { Pipeline } from "../../shared/pipeline.ts";
import { unreachableRubric } from "../../core/rerank/generate-rubric.ts";
import { applyWeights } from "../../core/rerank/weights.ts";
import { StepClock } from "../../shared/steps/clock.ts";
import { resolveStep, type StepContext } from "../../shared/steps/transport.ts";
import type { SearchHit } from "../../shared/vector/port.ts";
import {
  answerStep,
  fuseStep,
  type GeneratedRubric,
  type Reranked,
  rerankStep,
  type Retrieved,
  rubricStep,
  searchStep,
} from "./steps.ts";
import type { SendQueryEvent } from "./events.ts";

/** The rerank step's reply when retrieval found nothing. */
const NOTHING_RERANKED: Reranked = {
  results: [],
  discarded: [],
  degraded: false,
  usage: { tokens_in: 0, tokens_out: 0 },
};

/** A retrieved chunk as the answer and rerank functions take it: id, text, metadata. */
function toInlineDocument(hit: SearchHit) {
  return { id: hit.id, text: hit.text, metadata: hit.metadata };
}

/** A step's tokens, with the cost it priced itself (a cross-encoder's) when it did. */
function stepUsage(usage: { tokens_in: number; tokens_out: number; cost_usd?: unknown }) {
  const cost = usage.cost_usd;
  return {
    tokens_in: usage.tokens_in,
    tokens_out: usage.tokens_out,
    ...(typeof cost === "number" || cost === null ? { cost_usd: cost } : {}),
  };
}

/** Keeps the error of a step that is awaited later from surfacing as unhandled. */
function started<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => {});
  return promise;
}

/**
 * One question through the pipeline: retrieval (fused when asked) → rerank →
 * answer, sending events as each stage ends and answer tokens as they arrive.
 * This is composition only: every step is another function's public route,
 * reached in-process, through a service binding or over HTTP (`usage.steps[].via`
 * says which). A two-turn rubric depends only on the query, so it is
 * generated while retrieval runs. `context.signal` aborts every step when the
 * client leaves.
 */
export function runQuery(
  context: StepContext,
  input: QueryInput,
  send: SendQueryEvent,
  clock: StepClock = new StepClock(),
): Promise<void> {
  const { pipeline } = input;
  return inSpan("sift.query", {
    "sift.strategy": pipeline.rerank?.strategy ?? "none",
    "sift.namespace": pipeline.namespace,
    "sift.retrieval.mode": pipeline.retrieval.mode,
    "sift.retrieval.fusion": pipeline.retrieval.fusion,
    ...(pipeline.rerank?.prefilter
      ? { "sift.prefilter.model": pipeline.rerank.prefilter.model }
      : {}),
  }, (span) => runQueryInSpan(context, input, send, clock, span));
}

type QueryInput = {
  query: string;
  pipeline: Pipeline;
  /** Sees the passages the answer is given, in `[n]` order (the chat route's `sources`). */
  onAnswerDocuments?: (documents: readonly SearchHit[]) => void;
  /** The answer as a JSON object this schema describes (chat's `response_format`). */
  answerFormat?: AnswerFormat | undefined;
  /**
   * Retrieval of the caller's own choosing (the Responses API's `file_search`
   * over vector stores), in place of the pipeline's search or fusion.
   */
  retrieve?: (() => Promise<SearchHit[]>) | undefined;
};

async function runQueryInSpan(
  context: StepContext,
  input: QueryInput,
  send: SendQueryEvent,
  clock: StepClock,
  span: Span,
): Promise<void> {
  const { rerank, sequential, retrieval } = input.pipeline;
  const spec = rerank && strategySpec(rerank.strategy);
  const twoTurn = spec?.rubric === "generated";
  const rubric = () =>
    generateRubric(context, input.query, rerank!.strategy, rerank!.weights === "rubric", clock);
  const early = twoTurn && !sequential ? started(rubric()) : undefined;

  const fuse = resolveStep("FUSE", context);
  const options = { query: input.query, ...input.pipeline };
  const { retrieve } = input;
  const { usage: _, ...retrieved } = retrieve
    ? await clock.run("file_search", "in-process", async (): Promise<Retrieved> => ({
      queries: [{ text: input.query, origin: "original" }],
      results: await retrieve(),
      usage: { tokens_in: 0, tokens_out: 0 },
    }))
    : await clock.run(
      retrieval.fusion > 0 ? "fuse" : "retrieval",
      fuse.via,
      () =>
        retrieval.fusion > 0
          ? fuseStep(fuse, context, options)
          : searchStep(fuse, context, options),
      (result: Retrieved) => result.usage,
    );
  await send("retrieval-end", retrieved);
  let hits = retrieved.results;

  if (rerank && spec?.usesModel) {
    const generated = twoTurn ? await (early ?? rubric()) : undefined;
    if (generated) {
      await send("rubric-end", {
        rubric: applyWeights(generated.rubric, rerank.weights).rubric,
        degraded: generated.degraded,
      });
    }
    const step = resolveStep("RERANK", context);
    // Nothing retrieved (an empty namespace, a filter nothing matches): nothing to rerank,
    // and the rerank route refuses an empty list, so the step is not called.
    const reranked = hits.length === 0 ? NOTHING_RERANKED : await clock.run(
      "rerank",
      step.via,
      () =>
        rerankStep(step, context, {
          query: input.query,
          documents: hits.map(toInlineDocument),
          strategy: rerank.strategy,
          top_n: rerank.top_n,
          ...(generated ? { rubric: generated.rubric } : {}),
          ...(rerank.weights !== undefined ? { weights: rerank.weights } : {}),
          explain: rerank.explain,
          batch_size: rerank.batch_size,
          ...(rerank.item ? { item: rerank.item } : {}),
          ...(rerank.tot ? { tot: rerank.tot } : {}),
          ...(rerank.prefilter ? { prefilter: rerank.prefilter } : {}),
        }),
      (result) => stepUsage(result.usage),
    );
    const { usage: _usage, rubric: usedRubric, ...rest } = reranked;
    if (!generated && usedRubric) await send("rubric-end", { rubric: usedRubric });
    const warnings = [...(generated?.repairs ?? []), ...(rest.warnings ?? [])];
    span.setAttribute("sift.degraded", rest.degraded || Boolean(generated?.degraded));
    await send("rerank-end", {
      ...rest,
      results: rest.results.map((result) => ({
        ...result,
        doc_id: hits[result.index]?.doc_id,
        title: hits[result.index]?.metadata.title,
      })),
      degraded: rest.degraded || Boolean(generated?.degraded),
      ...(warnings.length ? { warnings } : {}),
    });
    // ToT's sentence unit keeps sentences: the answer gets each one, with its passage's metadata.
    hits = rest.results.flatMap((result) => {
      const hit = hits[result.index];
      if (!hit) return [];
      return typeof result.sentence === "string" ? [{ ...hit, text: result.sentence }] : [hit];
    });
  } else if (rerank) {
    hits = hits.slice(0, rerank.top_n);
  }

  const answer = resolveStep("ANSWER", context);
  const answerStarted = clock.elapsed();
  // The answer route's own limit: the best-ranked passages go first.
  const answerDocuments = hits.slice(0, LIMITS.answerDocuments);
  input.onAnswerDocuments?.(answerDocuments);
  const stream = answerStep(answer, context, {
    query: input.query,
    documents: answerDocuments.map(toInlineDocument),
    ...(input.answerFormat ? { json_schema: input.answerFormat } : {}),
  });
  let next = await stream.next();
  for (; !next.done; next = await stream.next()) await send("answer-delta", { text: next.value });
  clock.record("answer", answer.via, answerStarted, next.value.usage);
  await send("answer-end", next.value.answer);
  const priced = pricedSteps(clock.steps, context.config);
  await send("usage", {
    steps: priced.steps,
    total_ms: clock.elapsed(),
    cost_usd: priced.cost_usd,
  });
}

/**
 * REBEL's first turn through the generate-rubric function. A rubric that
 * cannot be had degrades to the default rubric instead of failing the
 * request, as a failed rerank batch does.
 */
async function generateRubric(
  context: StepContext,
  query: string,
  strategy: string,
  rubricWeights: boolean,
  clock: StepClock,
): Promise<GeneratedRubric> {
  const relevanceOnly = strategy === "two-turn-relevance";
  const step = resolveStep("GENERATE_RUBRIC", context);
  try {
    return await clock.run(
      "rubric",
      step.via,
      () => rubricStep(step, context, { query, relevanceOnly, rubricWeights }),
      (generated) => generated.usage,
    );
  } catch (error) {
    if (context.signal.aborted) throw error;
    const { rubric, warning } = unreachableRubric(query, relevanceOnly, error);
    return { rubric, degraded: true, repairs: [warning], usage: { tokens_in: 0, tokens_out: 0 } };
  }
}

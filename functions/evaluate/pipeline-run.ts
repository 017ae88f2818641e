import type { Pipeline } from "../../shared/pipeline.ts";
import { strategySpec } from "../../shared/rerank/strategies.ts";
import { streamStep } from "../../shared/steps/call.ts";
import type { StepRecord } from "../../shared/steps/clock.ts";
import type { StepContext, StepTransport } from "../../shared/steps/transport.ts";
import type { SearchHit } from "../../shared/vector/port.ts";
import {
  type Fallbacks,
  JUDGED_RETRIEVED,
  type Passage,
  type RetrievedPassage,
  type StepReadings,
  type VariantRun,
} from "./types.ts";

/** The events `/v1/query` sends, as far as the evaluation reads them. */
type Retrieved = { results: SearchHit[]; degraded?: boolean; reason?: string };
type Reranked = {
  results: { index: number }[];
  degraded?: boolean;
  /** ITEM's iterations: the last one's utility set is what it judged useful. */
  iterations?: { utility: number[] }[];
  /** Values the rerank asked of its model, and those unreadable after a correction. */
  readings?: { asked: number; unreadable: number };
};
type Answered = { answer: string; citations: unknown[]; answered: boolean };
type Usage = { steps: StepRecord[]; total_ms: number; cost_usd?: number | null };
type Rubric = { degraded?: boolean };
type Collected = {
  retrieved?: Retrieved;
  rubric?: Rubric;
  reranked?: Reranked;
  answer?: Answered;
  usage?: Usage;
};

/** What the run's events say fell back: the rubric, the rerank order, the variations. */
export function fallbacksOf(collected: Collected): Fallbacks | undefined {
  const fallbacks: Fallbacks = {
    ...(collected.rubric?.degraded ? { rubric: true as const } : {}),
    ...(collected.reranked?.degraded ? { rerank_order: true as const } : {}),
    ...(collected.retrieved?.degraded && /variation/i.test(collected.retrieved.reason ?? "")
      ? { variations: true as const }
      : {}),
  };
  return Object.keys(fallbacks).length ? fallbacks : undefined;
}

/**
 * The replies each model step of the run asked for and left unreadable
 * after one correction: the rerank's scores or judgments (every LLM
 * strategy, ITEM and ToT included), the generated rubric, the query
 * variations. The report's degraded share counts them beside the judges'.
 */
export function stepReadingsOf(collected: Collected, pipeline: Pipeline): StepReadings {
  const fell = fallbacksOf(collected) ?? {};
  const once = (asked: boolean, failed: boolean) => ({
    asked: asked ? 1 : 0,
    unreadable: asked && failed ? 1 : 0,
  });
  const strategy = pipeline.rerank?.strategy;
  return {
    rerank: collected.reranked?.readings ?? { asked: 0, unreadable: 0 },
    rubric: once(
      strategy !== undefined && strategySpec(strategy).rubric === "generated",
      Boolean(fell.rubric),
    ),
    variations: once(pipeline.retrieval.fusion > 0, Boolean(fell.variations)),
  };
}

function toPassage(hit: SearchHit): Passage {
  const title = hit.metadata.title;
  return {
    id: hit.id,
    doc_id: hit.doc_id,
    ...(typeof title === "string" ? { title } : {}),
    text: hit.text,
    metadata: hit.metadata,
  };
}

/** A ranked hit; the first few keep their text for the judge (RAGElo's MRR@5). */
function toRetrieved(hit: SearchHit, rank: number): RetrievedPassage {
  const passage = { id: hit.id, doc_id: hit.doc_id, score: hit.score };
  return rank < JUDGED_RETRIEVED ? { ...passage, text: hit.text, metadata: hit.metadata } : passage;
}

/**
 * One question through one pipeline: `POST /v1/query` on the orchestrator,
 * with its events collected into what the evaluation measures: the ranking,
 * the passages the answer saw, the answer, each step's time and tokens, and
 * REBEL's speed (output characters per second of the whole pipeline).
 */
export async function runVariantOver(
  orchestrator: StepTransport,
  context: StepContext,
  input: { query: string; pipeline: Pipeline },
): Promise<VariantRun> {
  const collected: Collected = {};
  const events = streamStep(orchestrator, "/v1/query", input, {
    context,
    timeoutMs: context.config.steps.timeoutMs,
  });
  for await (const { event, data } of events) {
    if (event === "retrieval-end") collected.retrieved = data as Retrieved;
    else if (event === "rerank-end") collected.reranked = data as Reranked;
    else if (event === "rubric-end") collected.rubric = data as Rubric;
    else if (event === "answer-end") collected.answer = data as Answered;
    else if (event === "usage") collected.usage = data as Usage;
  }
  const { retrieved, reranked, answer, usage } = collected;
  if (!retrieved || !answer || !usage) throw new Error("The pipeline ended without an answer");
  const hits = retrieved.results;
  const kept = reranked
    ? reranked.results.map((result) => hits[result.index]).filter((hit) => hit !== undefined)
    : hits;
  const utility = reranked?.iterations?.at(-1)?.utility.flatMap((index) => {
    const hit = hits[index];
    return hit ? [hit.doc_id] : [];
  });
  const tokens = (field: "tokens_in" | "tokens_out") =>
    usage.steps.reduce((sum, step) => sum + step[field], 0);
  const seconds = usage.total_ms / 1000;
  return {
    answer: answer.answer,
    answered: answer.answered,
    citations: answer.citations.length,
    retrieved: hits.map(toRetrieved),
    kept: kept.map(toPassage),
    steps: usage.steps,
    total_ms: usage.total_ms,
    tokens_in: tokens("tokens_in"),
    tokens_out: tokens("tokens_out"),
    output_chars: answer.answer.length,
    chars_per_second: seconds > 0 ? answer.answer.length / seconds : 0,
    degraded: Boolean(retrieved.degraded || reranked?.degraded),
    ...(utility ? { utility_doc_ids: utility } : {}),
    ...(fallbacksOf(collected) ? { fallbacks: fallbacksOf(collected) } : {}),
    readings: stepReadingsOf(collected, input.pipeline),
    cost_usd: usage.cost_usd ?? null,
  };
}

import { trace } from "@opentelemetry/api";
import { oneTurnRubric } from "../../prompts/rerank-one-turn.ts";
import { rubricPrompt, rubricRelevancePrompt } from "../../prompts/rubric.ts";
import type { ResilientCache } from "../../shared/cache/resilient.ts";
import { sha256Hex } from "../../shared/hash.ts";
import { completeObject, type TokenUsage } from "../../shared/llm/chat.ts";
import type { LlmContext } from "../../shared/llm/client.ts";
import { promptTag, renderTemplate } from "../../shared/llm/prompt.ts";
import { renderRerankSystem } from "./render.ts";
import {
  repairRubric,
  type Rubric,
  type RubricDraft,
  rubricDraftSchema,
  rubricLlmSchema,
} from "../../shared/rerank/rubric.ts";
import { correctionTurns, sumUsage } from "../correction.ts";
import { correctionPrompt } from "../../prompts/correction.ts";
import { readRubricDraft } from "../../shared/rerank/read-rubric.ts";
import { scoringWeights } from "./weights.ts";

export type GeneratedRubric = {
  rubric: Rubric;
  /** The reranking prompt this rubric renders to, for people to audit. */
  prompt: string;
  cached: boolean;
  /** True when the model's rubric was unusable and a default stands in. */
  degraded: boolean;
  /** What was wrong with the model's rubric and how it was fixed. */
  repairs: string[];
  usage: TokenUsage;
};

const RUBRIC_TTL_SECONDS = 7 * 24 * 3600;

/** Case, spacing and trailing punctuation do not make a different query. */
export function normalizeQuery(query: string): string {
  return query.trim().toLowerCase().replace(/\s+/g, " ").replace(/[\s?.!]+$/, "");
}

/**
 * A rubric that could not be had at all (the model or the rubric step
 * failed): the default rubric and the warning the response carries. The
 * orchestrator's rubric step and the rerank function's own first turn both
 * degrade through this, with the same words.
 */
export function unreachableRubric(
  query: string,
  relevanceOnly: boolean,
  error: unknown,
): { rubric: Rubric; warning: string } {
  console.warn("rubric generation failed:", error instanceof Error ? error.message : error);
  return {
    rubric: defaultRubric(query, relevanceOnly),
    warning: "the rubric could not be generated: using the default rubric",
  };
}

/** The fallback when a model's rubric cannot be used or the model cannot be reached. */
export function defaultRubric(query: string, relevanceOnly: boolean): Rubric {
  if (!relevanceOnly) return oneTurnRubric;
  return {
    criteria: [],
    relevance: { definition: `Directly addresses: ${query}` },
    relevance_threshold: 3,
    tie_break: "retrieval_rank",
  };
}

/**
 * REBEL's first turn: from the query alone, a rubric of secondary criteria
 * with definitions and weights (or, `relevanceOnly`, a query-specific
 * definition of relevance). The model's rubric is validated and repaired,
 * never trusted; an unusable one is replaced by the default and flagged
 * `degraded`. Every criterion weighs REBEL's 0.5 unless `rubricWeights`
 * asks for the weights the model wrote. Cached per normalized query, prompt
 * version and model, with the model's weights: both choices share one call.
 */
export async function generateRubric(
  deps: { llm: LlmContext; cache: ResilientCache },
  query: string,
  options: {
    relevanceOnly?: boolean;
    rubricWeights?: boolean | undefined;
    signal?: AbortSignal | undefined;
  } = {},
): Promise<GeneratedRubric> {
  const relevanceOnly = options.relevanceOnly ?? false;
  const prompt = relevanceOnly ? rubricRelevancePrompt : rubricPrompt;
  const weigh = (rubric: Rubric) => scoringWeights(rubric, options.rubricWeights ?? false);
  const render = (rubric: Rubric) =>
    renderRerankSystem(rubric, { structured: deps.llm.structuredOutputs, explain: false });
  const key = `rubric:${promptTag(prompt)}:${deps.llm.model}:${await sha256Hex(
    normalizeQuery(query),
  )}`;
  const cached = await deps.cache.get<{ rubric: Rubric; repairs: string[] }>(key);
  trace.getActiveSpan()?.setAttribute("sift.cache.hit", Boolean(cached));
  if (cached) {
    const rubric = weigh(cached.rubric);
    return {
      rubric,
      repairs: cached.repairs,
      prompt: render(rubric),
      cached: true,
      degraded: false,
      usage: { tokens_in: 0, tokens_out: 0 },
    };
  }
  const request = {
    prompt,
    system: prompt.system,
    user: renderTemplate(prompt.user, { query: query.replace(/\n+/g, " ") }),
    schema: rubricDraftSchema,
    responseSchema: rubricLlmSchema,
    schemaName: "rubric",
    signal: options.signal,
  };
  // A provider that ignores the format, or a model that fences, wraps, loosens or lists its
  // rubric, still wrote one: read it as a person would before correcting or falling back.
  const read = (reply: { object: RubricDraft | undefined; text: string }) => {
    const draft = reply.object ?? readRubricDraft(reply.text);
    return draft && repairRubric(draft, { allowEmpty: relevanceOnly });
  };
  const first = await completeObject(deps.llm, request);
  let repaired = read(first);
  let usage = first.usage;
  if (!repaired) {
    const format = relevanceOnly
      ? correctionPrompt.rubricRelevanceFormat
      : correctionPrompt.rubricFormat;
    const second = await completeObject(deps.llm, {
      ...request,
      followUp: correctionTurns(first.text, correctionPrompt.noRubric, format),
    });
    repaired = read(second);
    usage = sumUsage(first.usage, second.usage);
  }
  const reply = { usage };
  if (!repaired) {
    const rubric = defaultRubric(query, relevanceOnly);
    return {
      rubric,
      prompt: render(rubric),
      cached: false,
      degraded: true,
      repairs: [
        "the model's rubric was unusable, even after a correction: using the default rubric",
      ],
      usage: reply.usage,
    };
  }
  await deps.cache.set(key, repaired, { ttlSeconds: RUBRIC_TTL_SECONDS });
  const rubric = weigh(repaired.rubric);
  return {
    rubric,
    repairs: repaired.repairs,
    prompt: render(rubric),
    cached: false,
    degraded: false,
    usage: reply.usage,
  };
}

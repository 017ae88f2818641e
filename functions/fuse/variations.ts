import { trace } from "@opentelemetry/api";
import { z } from "zod";
import { queryVariationsPrompt } from "../../prompts/query-variations.ts";
import type { ResilientCache } from "../../shared/cache/resilient.ts";
import { sha256Hex } from "../../shared/hash.ts";
import {
  type ChatRequest,
  completeObject,
  completeText,
  type TokenUsage,
} from "../../shared/llm/chat.ts";
import { correctionTurns, sumUsage } from "../../core/correction.ts";
import { isRefusal } from "../../shared/llm/reply-text.ts";
import { correctionPrompt } from "../../prompts/correction.ts";
import type { LlmContext } from "../../shared/llm/client.ts";
import { promptTag, renderTemplate } from "../../shared/llm/prompt.ts";
import { readVariations } from "./read-variations.ts";

const variationsSchema = z.object({ queries: z.array(z.string()) });

export type Variations = {
  queries: string[];
  degraded: boolean;
  /** The model declined to write variations (even after a correction): a refusal is no query. */
  refused?: true;
  usage: TokenUsage;
};

/**
 * Keeps what looks like a query: trimmed, de-numbered, distinct from the
 * question and from each other, at most `count`.
 */
export function cleanVariations(
  candidates: readonly string[],
  query: string,
  count: number,
): string[] {
  if (count <= 0) return [];
  const seen = new Set([query.trim().toLowerCase()]);
  const kept: string[] = [];
  for (const candidate of candidates) {
    const text = unquoted(candidate.replace(/^\s*(?:[-*•]|\d+[.)])\s*/, "").trim());
    const key = text.toLowerCase();
    if (text.length < 2 || text.length > 500 || seen.has(key)) continue;
    seen.add(key);
    kept.push(text);
    if (kept.length === count) break;
  }
  return kept;
}

/** A query quoted whole (`"rrf formula"`) without its quotes; a quote inside one (`"RRF" k`) stays. */
function unquoted(query: string): string {
  const whole = /^(["'])([^"']*)\1$/.exec(query);
  return (whole ? whole[2]! : query).trim();
}

const VARIATIONS_TTL_SECONDS = 24 * 3600;

/**
 * RAG-Fusion's first step: the LLM writes `count` search queries for the
 * question. Cached per normalized question, count, prompt version and model.
 * A reply with no usable query (a refusal included: it is never searched
 * for) gets one correction turn; still none, the result is empty and
 * `degraded` (`refused` when the model declined): fusion then runs on the
 * original query alone and says so.
 */
export async function generateQueryVariations(
  deps: { llm: LlmContext; cache: ResilientCache },
  query: string,
  count: number,
  signal?: AbortSignal,
): Promise<Variations> {
  const normalized = query.trim().replace(/\s+/g, " ").toLowerCase();
  const mode = deps.llm.structuredOutputs ? "json" : "text";
  const key = `variations:${
    promptTag(queryVariationsPrompt)
  }:${deps.llm.model}:${mode}:${count}:${await sha256Hex(normalized)}`;
  const cached = await deps.cache.get<string[]>(key);
  trace.getActiveSpan()?.setAttribute("sift.cache.hit", Boolean(cached));
  if (cached) return { queries: cached, degraded: false, usage: { tokens_in: 0, tokens_out: 0 } };

  const request = {
    prompt: queryVariationsPrompt,
    system: renderTemplate(queryVariationsPrompt.system, { count }),
    user: renderTemplate(queryVariationsPrompt.user, {
      query,
      format: renderTemplate(
        deps.llm.structuredOutputs
          ? queryVariationsPrompt.formatJson
          : queryVariationsPrompt.formatText,
        { count },
      ),
    }),
    signal,
  };
  const format = renderTemplate(
    deps.llm.structuredOutputs
      ? queryVariationsPrompt.formatJson
      : queryVariationsPrompt.formatText,
    { count },
  );
  const ask = async (followUp?: ChatRequest["followUp"]) => {
    if (deps.llm.structuredOutputs) {
      const reply = await completeObject(deps.llm, {
        ...request,
        followUp,
        schema: variationsSchema,
        schemaName: "query_variations",
      });
      // A provider that ignores the JSON format still wrote queries: read them from its lines.
      const candidates = reply.object?.queries ?? readVariations(reply.text);
      return { ...reply, queries: cleanVariations(candidates, query, count) };
    }
    const reply = await completeText(deps.llm, { ...request, followUp });
    return { ...reply, queries: cleanVariations(readVariations(reply.text), query, count) };
  };
  const first = await ask();
  let usage = first.usage;
  let queries = first.queries;
  let refused = isRefusal(first.text);
  if (queries.length === 0) {
    // One correction turn; a refusal gets it too (models often comply on the second ask).
    const second = await ask(correctionTurns(first.text, correctionPrompt.noQueries, format));
    usage = sumUsage(first.usage, second.usage);
    queries = second.queries;
    refused = queries.length === 0 && (refused || isRefusal(second.text));
  }
  if (queries.length > 0) {
    await deps.cache.set(key, queries, { ttlSeconds: VARIATIONS_TTL_SECONDS });
  }
  return {
    queries,
    degraded: queries.length === 0,
    ...(refused ? { refused: true as const } : {}),
    usage,
  };
}

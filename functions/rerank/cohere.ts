import { z } from "zod";
import { InvalidRequestError } from "../../shared/errors.ts";
import { LIMITS } from "../../shared/limits.ts";
import { maxFinalScore } from "../../shared/rerank/rubric.ts";
import type { RerankStrategy } from "../../shared/rerank/types.ts";
import {
  rerankStrategy,
  rerankStrategyNames,
  strategySpec,
} from "../../shared/rerank/strategies.ts";
import { tokenize } from "../../shared/text/tokenize.ts";
import { querySchema } from "../../shared/schemas.ts";
import { CROSS_ENCODER_MODELS } from "../../shared/rerank/cross-encoder.ts";
import type { RerankResponse } from "./rerank.ts";

/** Cohere's model names for sift's strategies: `sift-<strategy>` for each that asks a model. */
export function cohereModels(): string[] {
  return rerankStrategyNames().filter((name) => strategySpec(name).usesModel)
    .map((name) => `sift-${name}`);
}

/** Every `model` `/v2/rerank` takes: sift's strategies, then the cross-encoders. */
function rerankModelNames(): string[] {
  return [...cohereModels(), ...CROSS_ENCODER_MODELS];
}

/** One document's text; a longer one would hold every prompt (and the event loop) up. */
const cohereDocumentText = z.string({ error: "must be a string" })
  .min(1, { error: "must not be empty" })
  .max(LIMITS.rerankDocumentChars, {
    error: `must be at most ${LIMITS.rerankDocumentChars} characters`,
  });

/**
 * `POST /v2/rerank`: Cohere's documented parameters with their meaning
 * (`priority` accepted and ignored), and `discarded`, sift's own.
 */
export const cohereSchema = z.strictObject({
  model: z.string({ error: () => `must be one of ${rerankModelNames().join(", ")}` })
    .refine((model) => rerankModelNames().includes(model), {
      error: (issue) =>
        `unknown model ${JSON.stringify(issue.input)}; valid models: ${
          rerankModelNames().join(", ")
        }`,
    }).meta({
      enum: rerankModelNames(),
      description: "The strategy, or a cross-encoder (`@cf/baai/bge-reranker-base`, Workers AI)",
    }),
  query: querySchema,
  documents: z.array(
    z.union([cohereDocumentText, z.record(z.string(), cohereDocumentText)], {
      error: "must be a string or an object of string fields ({text}, or the `rank_fields`)",
    }),
    { error: "must be an array of strings" },
  ).min(1, { error: "must hold at least one document" }).max(LIMITS.rerankDocuments, {
    error: `must hold at most ${LIMITS.rerankDocuments} documents`,
  }),
  top_n: z.number({ error: "must be a number" }).int({ error: "must be a whole number" })
    .min(1, { error: "must be at least 1" }).optional().meta({
      description: "How many results: `min(top_n, documents.length)`; all when absent",
    }),
  return_documents: z.boolean({ error: "must be a boolean" }).default(false).meta({
    description: "Each result carries its `document` as sent (`{text}` for a string)",
  }),
  max_tokens_per_doc: z.number({ error: "must be a number" })
    .int({ error: "must be a whole number" }).positive({ error: "must be at least 1" })
    .optional().meta({ description: "Each document is cut to this many tokens before ranking" }),
  rank_fields: z.array(z.string().min(1), { error: "must be an array of field names" })
    .min(1, { error: "must name at least one field" }).max(20).optional().meta({
      description: "Object documents: the fields ranked on, as `field: value` lines " +
        "(default: `text`)",
    }),
  priority: z.number({ error: "must be a number" }).int().min(0).max(999).optional().meta({
    description: "Accepted and ignored (Cohere's load shedding)",
  }),
  discarded: z.enum(["last", "omit"], { error: 'must be "last" or "omit"' }).default("last")
    .meta({
      description: "sift's extension. `last` (default): documents the strategy discards " +
        "(REBEL's relevance threshold, ToT's screening) follow the kept ones, scored below " +
        "every kept score, as a Cohere caller expects `min(top_n, documents)` results. " +
        "`omit`: they are left out, as `/v1/rerank` does.",
    }),
});

export type CohereRequest = z.output<typeof cohereSchema>;

/** The strategy a Cohere `model` names; an own key only ("constructor" finds nothing). */
export function strategyOf(model: string): RerankStrategy {
  const strategy = model.startsWith("sift-") ? rerankStrategy(model.slice(5)) : undefined;
  if (!strategy?.usesModel) {
    throw new InvalidRequestError(
      `model: unknown model "${model}"; valid models: ${cohereModels().join(", ")}`,
    );
  }
  return strategy.name as RerankStrategy;
}

/** The text each document is ranked on: its rank fields, cut to `max_tokens_per_doc`. */
export function rankedTexts(body: CohereRequest): string[] {
  return body.documents.map((document, index) => {
    let text: string;
    if (typeof document === "string") text = document;
    else if (body.rank_fields) {
      text = body.rank_fields.map((field) => {
        if (!Object.hasOwn(document, field)) {
          throw new InvalidRequestError(
            `rank_fields: documents.${index} has no field ${JSON.stringify(field)}`,
          );
        }
        return `${field}: ${document[field]}`;
      }).join("\n");
    } else if (Object.hasOwn(document, "text")) text = document.text!;
    else {
      throw new InvalidRequestError(
        `documents.${index}.text: required (or name the fields to rank in rank_fields)`,
      );
    }
    if (body.max_tokens_per_doc === undefined) return text;
    const last = tokenize(text)[body.max_tokens_per_doc - 1];
    return last ? text.slice(0, last.end) : text;
  });
}

type CohereResult = {
  index: number;
  relevance_score: number;
  document?: string | Record<string, string> | { text: string };
};

/**
 * Cohere's results from a sift reranking: the kept documents best first,
 * their scores in [0, 1], then (unless `omit`) the discarded ones, each
 * scored below the lowest kept score, in their own order; cut to `top_n`.
 */
export function cohereResults(
  reranked: RerankResponse,
  strategy: RerankStrategy,
  body: CohereRequest,
): { results: CohereResult[]; discarded: { index: number; reason: string }[] } {
  // Cohere's scores are in [0, 1]: the final score over the most the rubric allows.
  // ITEM's scores are in (0, 1] already (item/score.ts), ToT's the mean level-2 score.
  const scale = strategySpec(strategy).unitScores
    ? 1
    : reranked.rubric
    ? maxFinalScore(reranked.rubric)
    : 10;
  const unit = (score: number | null | undefined) => Math.min(1, Math.max(0, (score ?? 0) / scale));
  const kept = reranked.results.map((result) => ({
    index: result.index,
    relevance_score: unit(result.relevance_score),
  }));
  const seen = new Set(kept.map((result) => result.index));
  const discarded = reranked.discarded.filter((entry) => !seen.has(entry.index));
  for (const entry of discarded) seen.add(entry.index);
  // Every document is accounted for, whatever a strategy reported.
  body.documents.forEach((_, index) => {
    if (!seen.has(index)) discarded.push({ index, reason: "not ranked" });
  });
  if (discarded.length > 0 && body.discarded === "last") {
    // A kept document that scored 0 would tie the discarded ones: it keeps a hair above.
    for (const result of kept) result.relevance_score = Math.max(result.relevance_score, 1e-6);
  }
  const floor = kept.length ? Math.min(...kept.map((result) => result.relevance_score)) : 1;
  const below = discarded
    .map((entry) => ({ index: entry.index, natural: unit(entry.relevance_score) }))
    .sort((a, b) => b.natural - a.natural || a.index - b.index)
    // Halved, so even a discarded document that scored 1 stays under the lowest kept one.
    .map(({ index, natural }) => ({ index, relevance_score: (floor * natural) / 2 }));
  const ranked = body.discarded === "omit" ? kept : [...kept, ...below];
  const results = ranked.slice(0, body.top_n ?? ranked.length).map((result) =>
    body.return_documents ? { ...result, document: documentOf(body, result.index) } : result
  );
  return {
    results,
    discarded: discarded.map(({ index, reason }) => ({ index, reason })),
  };
}

/** Cohere's reply around the results: an id, `meta` (v2's or v1's), and sift's `discarded`. */
export function cohereReply(
  results: CohereResult[],
  discarded: { index: number; reason: string }[],
  warnings?: string[],
  version: "1" | "2" = "2",
) {
  return {
    id: crypto.randomUUID(),
    results,
    meta: {
      api_version: { version },
      billed_units: { search_units: 1 },
      ...(warnings ? { warnings } : {}),
    },
    discarded,
  };
}

/** A result's `document` as Cohere returns it: `{text}` for a string. */
export function documentOf(body: CohereRequest, index: number) {
  const document = body.documents[index]!;
  return typeof document === "string" ? { text: document } : document;
}

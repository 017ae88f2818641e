import { z } from "zod";
import { rubricLlmSchema } from "./rerank/rubric.ts";

/*
 * Response bodies that more than one function sends: the orchestrator relays
 * search hits, rubrics, rerank results and answers in its events, so their
 * shapes live here. They describe replies in `/openapi.json`; requests keep
 * their own schemas in `schemas.ts` and beside each route.
 */

/** `{error: {type, message}}`: the body of every 4xx and 5xx. */
export const errorBodySchema = z.object({
  error: z.object({
    type: z.string().meta({
      description: "invalid_request, unauthorized, forbidden, not_found, method_not_allowed, " +
        "payload_too_large, " +
        "unsupported_media_type, rate_limited, " +
        "upstream_error, timeout, not_configured or internal_error",
    }),
    message: z.string().meta({ description: "For 400s, names the field and the reason" }),
  }),
});

/** OpenAI's error body, on the OpenAI-compatible routes (`shared/http/error-shapes.ts`). */
export const openAIErrorSchema = z.object({
  error: z.object({
    message: z.string(),
    type: z.string(),
    param: z.string().nullable().meta({ description: "The request field at fault, if one is" }),
    code: z.string().nullable(),
  }),
});

/** Cohere's error body, on the Cohere-compatible routes. */
export const cohereErrorSchema = z.object({
  message: z.string().meta({ description: "For 400s, names the field and the reason" }),
});

const providerHealthSchema = z.enum(["ok", "degraded", "down"]);

/** A log record a start of the embedded index cut from the log's end. */
export const recoveredTailSchema = z.object({
  file: z.string(),
  offset: z.number().int(),
  dropped_records: z.number().int(),
  dropped_bytes: z.number().int(),
  at: z.string().meta({ description: "When the start cut it (ISO 8601)" }),
});

/** The embedded index's own state (absent with Upstash Vector). */
const indexStatusSchema = z.object({
  status: z.enum(["loading", "ok", "failed"]).meta({
    description: "`loading` until the index serves; `failed` when its files could not be " +
      "read (`problems.index` says why)",
  }),
  recovered: recoveredTailSchema.extend({
    earlier: z.array(recoveredTailSchema).optional().meta({
      description: "Earlier starts' cuts, not acknowledged either, oldest first",
    }),
  }).optional().meta({
    description: "The record a start cut from the end of the index log (torn by a crash, or " +
      "failing its checksum): the file, the byte where it began, how many records and bytes " +
      "went, and when; kept across restarts and checkpoints until an operator acknowledges it " +
      "(`DELETE /v1/index/recovered`), and meanwhile `checks.index` is `degraded`",
  }),
  warming: z.literal(true).optional().meta({
    description: "The index serves searches while its start still reads its larger arrays " +
      "in (searches read what they need from the file meanwhile, a little slower; writes " +
      "and document listings wait for it); absent once everything is in",
  }),
});

/** `/healthz` while the embedded index loads: 503, so load balancers send nothing yet. */
export const healthLoadingSchema = z.object({
  status: z.literal("loading"),
  providers: z.object({
    llm: z.string(),
    embeddings: z.string(),
    index: z.string(),
    cache: z.string(),
  }),
  index: indexStatusSchema,
});

export const healthSchema = z.object({
  status: z.enum(["ok", "degraded"]).meta({
    description: "`degraded` when any provider is not `ok`: the service still answers",
  }),
  index: indexStatusSchema.optional(),
  providers: z.object({
    llm: z.string(),
    embeddings: z.string(),
    index: z.string(),
    cache: z.string(),
  }).meta({ description: "`offline` where an embedded default serves" }),
  checks: z.object({
    llm: providerHealthSchema,
    embeddings: providerHealthSchema,
    index: providerHealthSchema,
    cache: providerHealthSchema,
  }).meta({
    description: "`degraded`: answers but rate limits; `down`: fails or times out",
  }),
  problems: z.object({
    llm: z.string(),
    embeddings: z.string(),
    index: z.string(),
    cache: z.string(),
  }).partial().optional().meta({
    description: "Why each provider that is not `ok` is not (a status, a timeout, or a " +
      "damaged index file with its byte offset and what to do); absent when all are `ok`",
  }),
});

export const tokenUsageSchema = z.object({
  tokens_in: z.number().int(),
  tokens_out: z.number().int(),
});

export const chunkMetadataSchema = z.looseObject({
  doc_id: z.string(),
  chunk_index: z.number().int(),
  title: z.string().optional(),
  url: z.string().optional(),
  published: z.string().optional(),
  authors: z.union([z.string(), z.array(z.string())]).optional(),
}).meta({ description: "The document's fields and metadata, on each of its chunks" });

/** One chunk found by a search. */
export const searchHitSchema = z.object({
  id: z.string().meta({ description: "`${doc_id}#${chunk_index}`" }),
  doc_id: z.string(),
  text: z.string(),
  score: z.number(),
  metadata: chunkMetadataSchema,
});

/** A chunk found by RAG-Fusion: `ranks[i]` is its rank for `queries[i]` (null if absent). */
export const fusedHitSchema = searchHitSchema.extend({
  rrf_score: z.number(),
  ranks: z.array(z.number().int().nullable()),
});

export const queryVariationSchema = z.object({
  text: z.string(),
  origin: z.enum(["original", "variation"]),
});

/** A rubric as routes return it: the shape the model is asked for, after repair. */
export const rubricBodySchema = rubricLlmSchema.extend({
  tie_break: z.string().meta({ description: "A criterion's name, or `retrieval_rank`" }),
});

/** One reranked document with its score breakdown. */
export const rerankResultSchema = z.object({
  index: z.number().int().meta({ description: "The document's position in the request" }),
  id: z.string().optional(),
  relevance_score: z.number().nullable().meta({
    description: "Equals `scores.final`; null when its batch degraded or with strategy none",
  }),
  scores: z.object({
    relevance: z.number().nullable(),
    criteria: z.record(z.string(), z.number()),
    final: z.number(),
  }).nullable(),
  reason: z.string().optional(),
  degraded: z.literal(true).optional(),
});

export const discardedSchema = z.object({
  index: z.number().int(),
  reason: z.string(),
  relevance_score: z.number().optional().meta({
    description: "The final score it would have had (REBEL's strategies)",
  }),
});

export const citationSchema = z.object({
  index: z.number().int().meta({
    description: "The `[n]` in the answer: the document's position from 1",
  }),
  id: z.string().optional(),
  doc_id: z.string().optional(),
  title: z.string().optional(),
  url: z.string().optional(),
  section: z.string().optional().meta({ description: "The chunk's heading path, `A > B`" }),
  page: z.number().int().optional(),
  page_end: z.number().int().optional(),
  chunk_index: z.number().int().optional(),
  label: z.string().meta({
    description: "How a person finds the passage: title, section and page (`RoBERTa, §4.1, p. 6`)",
  }),
});

/** The `answer-delta` event: the next piece of the answer's text. */
export const answerDeltaSchema = z.object({ text: z.string() });

/** The `answer-end` event: the whole answer and what it cites. */
export const answerEndSchema = z.object({
  answer: z.string(),
  citations: z.array(citationSchema),
  answered: z.boolean().meta({
    description: "False when the documents do not answer the question",
  }),
  object: z.record(z.string(), z.unknown()).optional().meta({
    description: "With `json_schema`: the answer as the object the schema describes, validated",
  }),
});

/** The `error` event of a stream that failed after it opened; `done` follows. */
export const streamErrorSchema = z.object({
  type: z.string(),
  message: z.string(),
  step: z.string().optional().meta({ description: "The function that failed" }),
});

/** The `done` event: always the stream's last. */
export const doneSchema = z.object({});

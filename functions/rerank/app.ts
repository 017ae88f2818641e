import type { Context, Hono } from "hono";
import { z } from "zod";
import { InvalidRequestError } from "../../shared/errors.ts";
import type { AppEnv } from "../../shared/http/app-env.ts";
import { readJson, readRawJson, validate } from "../../shared/http/validate.ts";
import { LIMITS } from "../../shared/limits.ts";
import { DEFAULT_BATCH_SIZE } from "../../shared/rerank/types.ts";
import { MAX_WEIGHT, rubricSchema } from "../../shared/rerank/rubric.ts";
import { rerankStrategySchema } from "../../shared/rerank/strategies.ts";
import { inlineDocumentSchema, querySchema, withoutReservedKeys } from "../../shared/schemas.ts";
import { rerank } from "./rerank.ts";
import { runCohereRerank } from "./cohere-run.ts";
import { cohereModels, cohereSchema } from "./cohere.ts";
import { describe, json } from "../../shared/http/openapi.ts";
import { cohereErrorSchema, errorBodySchema } from "../../shared/responses.ts";
import { toCohereError } from "../../shared/http/error-shapes.ts";
import { cohereV1Schema, isCohereSdk, isCohereV1Body } from "./cohere-v1.ts";
import { cohereRerankResponseSchema, rerankResponseSchema } from "./responses.ts";
import { itemOptionsSchema } from "../../shared/rerank/item-options.ts";
import { totOptionsSchema } from "../../shared/rerank/tot/options.ts";
import { checkRerankRequest } from "./runners.ts";
import { crossEncoderFor, rerankWithCrossEncoder } from "./cross-encoder.ts";
import { rerankWithPrefilter } from "./prefilter.ts";
import { CROSS_ENCODER_MODELS } from "../../shared/rerank/cross-encoder.ts";

const crossEncoderModelSchema = z.enum(CROSS_ENCODER_MODELS, {
  error: `must be one of ${CROSS_ENCODER_MODELS.join(", ")}`,
});

const weightSchema = z.number().min(0).max(MAX_WEIGHT, { error: `must be in [0, ${MAX_WEIGHT}]` });

const rerankSchema = z.strictObject({
  query: querySchema,
  documents: z.array(inlineDocumentSchema, {
    error: "must be an array of strings or {id?, text, metadata?}",
  })
    .min(1, { error: "must hold at least one document" })
    .max(LIMITS.rerankDocuments, {
      error: `must hold at most ${LIMITS.rerankDocuments} documents`,
    }),
  strategy: rerankStrategySchema().optional().meta({
    description: "Default `one-turn`; not with `model`",
  }),
  model: crossEncoderModelSchema.optional().meta({
    description: "A cross-encoder ranks alone instead of a strategy " +
      "(`@cf/baai/bge-reranker-base`, Workers AI): scores in [0, 1], `scores` null",
  }),
  prefilter: z.strictObject({
    model: crossEncoderModelSchema,
    top_n: z.number().int().min(1, { error: "must be at least 1" }).max(LIMITS.rerankDocuments),
  }).optional().meta({
    description: "A first stage: the cross-encoder keeps the `top_n` best documents and the " +
      "strategy reranks only those; the others are `discarded` with the reason",
  }),
  top_n: z.number().int().min(1, { error: "must be at least 1" }).optional(),
  rubric: rubricSchema.optional(),
  weights: withoutReservedKeys(
    z.union([
      weightSchema,
      z.record(z.string(), weightSchema),
      z.literal("rubric"),
    ], {
      error: `must be a number in [0, ${MAX_WEIGHT}], {criterion: weight} or "rubric"`,
    }),
    "is a reserved name, not a criterion",
  ).optional().meta({
    description: "Criterion weights. Default: 0.5 each for a generated rubric (REBEL's " +
      'setting), a given rubric\'s own weights. `"rubric"`: the weights the generated ' +
      "rubric's model chose (two-turn strategies only).",
  }),
  explain: z.boolean().default(false),
  batch_size: z.number().int().min(1).max(LIMITS.rerankBatchSize).default(DEFAULT_BATCH_SIZE),
  item: itemOptionsSchema.optional().meta({
    description: "Strategy item only (ITEM): `variant` A_s, AR_s (default) or A_r; `answer` " +
      "explicit (default) or implicit; `judgment` listwise (default) or pointwise (A_s only); " +
      "`m` iterations, 3 by default, at most 5; `answer_stop` p in (0, 1].",
  }),
  tot: totOptionsSchema.optional().meta({
    description: "Strategy tot only (ToT-RAG): `dimensions_per_level` (1-5, default 2) is how " +
      "many dimensions each level scores on; `dimensions.level1` pins that many text-quality " +
      "dimensions, `dimensions.level2` that many similarity dimensions (else each level's " +
      "agent picks); `unit` passage (default) or sentence.",
  }),
});

function toDocuments(documents: z.infer<typeof inlineDocumentSchema>[]) {
  return documents.map((document) => typeof document === "string" ? { text: document } : document);
}

/** A Cohere v1 body on `/v1/rerank`: Cohere's reply, or its error shape. */
async function cohereV1Rerank(c: Context<AppEnv>, raw: unknown): Promise<Response> {
  try {
    return c.json(await runCohereRerank(c, validate(cohereV1Schema, raw), "1"));
  } catch (error) {
    const { status, body } = toCohereError(error);
    if (status >= 500) console.error(`${c.req.method} ${c.req.path} failed:`, error);
    return c.json(body, status as 400);
  }
}

/** `POST /v1/rerank` (sift's native form) and `POST /v2/rerank` (Cohere v2-compatible). */
export function mountRerank(app: Hono<AppEnv>): void {
  app.post(
    "/v1/rerank",
    describe({
      tag: "rerank",
      summary: "Rerank documents by relevance and secondary criteria (REBEL)",
      description: "`final = relevance + Σ weight · criterion`, computed in code; documents " +
        "below the relevance threshold are discarded. `relevance_score` equals `scores.final`. " +
        "Only the two-turn strategies take a `rubric`. A generated rubric weighs every " +
        'criterion 0.5, as REBEL does, unless `weights` says otherwise (`"rubric"`: the ' +
        "weights its model chose). Strategy `item` (ITEM) iterates pseudo-answers and utility " +
        "judgments (options in `item`): the utility set comes first, `relevance_score` is in " +
        "(0, 1] and above 0.5 exactly for the utility set, `scores` is null, and the response " +
        "adds `iterations` and `stop_reason`. Strategy `tot` (ToT-RAG, options in `tot`) " +
        "screens the candidates through two levels, text quality then similarity to the " +
        "query, each on two dimensions scored in [0, 1] with a threshold per dimension; " +
        "`relevance_score` is the mean level-2 score, `scores.criteria` holds the four " +
        "dimension scores, and the response adds `tree` (sentence unit: each result's " +
        "`sentence` comes from passage `index`). Cohere's v1 body (`cohere-ai`'s " +
        "`CohereClient`, LangChain's `CohereRerank`) is answered as Cohere v1 would, as " +
        "`/v2/rerank` answers v2's: a body is Cohere's when it has `return_documents`, " +
        "`rank_fields` or `max_chunks_per_doc`, or a `model` that is not a cross-encoder and " +
        "no `strategy`, or when it comes from one of Cohere's SDKs (`X-Fern-SDK-Name: " +
        "cohere-ai`), whose v1 body without `model` is sift's field for field; Cohere's " +
        "`model` then defaults to `sift-one-turn`.",
      body: rerankSchema,
      responses: {
        200: json(
          "Best first, each with its breakdown; for a Cohere v1 body, Cohere's v1 reply",
          z.union([rerankResponseSchema, cohereRerankResponseSchema]),
        ),
      },
      errors: [502],
      // A Cohere v1 body's errors are Cohere's, as its clients read them.
      errorBody: z.union([errorBodySchema, cohereErrorSchema]),
    }),
    async (c) => {
      const raw = await readRawJson(c, { maxBytes: LIMITS.ingestBodyBytes });
      if (isCohereV1Body(raw) || isCohereSdk(c.req.raw.headers)) {
        return await cohereV1Rerank(c, raw);
      }
      const { model, prefilter, ...parsed } = validate(rerankSchema, raw);
      if (model && (parsed.strategy || prefilter)) {
        throw new InvalidRequestError(
          `${
            parsed.strategy ? "strategy" : "prefilter"
          }: not with model (the cross-encoder ranks alone)`,
        );
      }
      const body = { ...parsed, strategy: parsed.strategy ?? "one-turn" };
      if (model) {
        const encoder = crossEncoderFor(model, c.var.config, c.env ?? {}, {
          tenant: c.var.deps.tenant,
        });
        return c.json(
          await rerankWithCrossEncoder(
            encoder,
            {
              query: body.query,
              documents: toDocuments(body.documents),
              top_n: body.top_n,
            },
            c.var.config,
            c.req.raw.signal,
          ),
        );
      }
      checkRerankRequest(body);
      const request = {
        ...body,
        documents: toDocuments(body.documents),
        trusted_sources: c.var.config.sourceTrust,
      };
      if (prefilter) {
        const encoder = crossEncoderFor(prefilter.model, c.var.config, c.env ?? {}, {
          field: "prefilter.model",
          tenant: c.var.deps.tenant,
        });
        return c.json(
          await rerankWithPrefilter(c.var.deps, request, prefilter, encoder, c.req.raw.signal),
        );
      }
      return c.json(await rerank(c.var.deps, request, c.req.raw.signal));
    },
  );

  app.post(
    "/v2/rerank",
    describe({
      tag: "rerank",
      summary: "Rerank, Cohere v2-compatible",
      description: `\`model\` names the strategy: ${cohereModels().join(", ")}. ` +
        "Answers `min(top_n, documents.length)` results (all without `top_n`), best first, " +
        "for every model. Scores are in [0, 1]: the final score over the most the rubric " +
        "allows; for `sift-item`, the utility set's scores are above 0.5 and the others' " +
        "below; for `sift-tot`, the mean level-2 (similarity) score. Documents the strategy " +
        "discards (REBEL's relevance threshold, the tree's screening) come after the kept " +
        "ones, scored below every kept score, and `discarded` says which and why; " +
        '`discarded: "omit"` leaves them out instead. Unknown fields are refused.',
      body: cohereSchema,
      responses: { 200: json("Best first", cohereRerankResponseSchema) },
      errors: [502],
      errorBody: cohereErrorSchema,
    }),
    async (c) => {
      const body = await readJson(c, cohereSchema, { maxBytes: LIMITS.ingestBodyBytes });
      return c.json(await runCohereRerank(c, body, "2"));
    },
  );
}

import type { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../shared/http/app-env.ts";
import { readJson } from "../../shared/http/validate.ts";
import { LIMITS } from "../../shared/limits.ts";
import { inlineDocumentSchema, querySchema } from "../../shared/schemas.ts";
import { judgeAnswer } from "./answer.ts";
import { judgePairwise } from "./pairwise.ts";
import { judgeRetrieval } from "./retrieval.ts";
import { answerSimilarity } from "./similarity.ts";
import { generateSyntheticQueries } from "./synthetic.ts";
import type { JudgeDocument } from "../../shared/judge/types.ts";
import { describe, json } from "../../shared/http/openapi.ts";
import {
  answerJudgmentSchema,
  pairwiseJudgmentSchema,
  retrievalJudgmentsSchema,
  similarityJudgmentSchema,
  syntheticQueriesSchema,
} from "./responses.ts";

const MAX_ANSWER_CHARS = 50_000;
const MAX_PASSAGES = 50;
const MAX_PER_PASSAGE = 10;
const MAX_MODELS = 5;
const MAX_EXAMPLES = 50;

const textSchema = z.string({ error: "must be a string" }).trim()
  .min(1, { error: "must not be empty" })
  .max(MAX_ANSWER_CHARS, { error: `must be at most ${MAX_ANSWER_CHARS} characters` });

const documentsSchema = z.array(inlineDocumentSchema, {
  error: "must be an array of strings or {id?, text, metadata?}",
}).max(LIMITS.answerDocuments, {
  error: `must hold at most ${LIMITS.answerDocuments} documents`,
});

const thresholdSchema = z.union([z.literal(0), z.literal(1), z.literal(2)], {
  error: "must be 0, 1 or 2",
});

/** Retrieval judgments already made for `documents` (from `/v1/judge/retrieval`): not judged again. */
const judgmentsSchema = z.array(
  z.strictObject({
    index: z.number().int().min(0),
    score: thresholdSchema,
    reason: z.string().max(MAX_ANSWER_CHARS),
    degraded: z.literal(true).optional(),
  }),
  { error: "must be an array of {index, score, reason}" },
).max(LIMITS.answerDocuments);

const retrievalSchema = z.strictObject({
  query: querySchema,
  documents: documentsSchema.min(1, { error: "must hold at least one document" }),
});

const answerSchema = z.strictObject({
  query: querySchema,
  answer: textSchema,
  documents: documentsSchema.optional(),
  judgments: judgmentsSchema.optional(),
  relevance_threshold: thresholdSchema.optional(),
});

const pairwiseSchema = z.strictObject({
  query: querySchema,
  answer_a: textSchema,
  answer_b: textSchema,
  documents: documentsSchema.optional(),
  judgments: judgmentsSchema.optional(),
  relevance_threshold: thresholdSchema.optional(),
});

const similaritySchema = z.strictObject({
  query: querySchema.optional(),
  answer: textSchema,
  reference: textSchema,
});

const syntheticSchema = z.strictObject({
  passages: z.array(
    z.union([
      z.string().trim().min(1, { error: "must not be empty" }).max(LIMITS.answerDocumentChars)
        .transform((text) => ({ text })),
      z.strictObject({
        id: z.string().max(200).optional(),
        title: z.string().max(500).optional(),
        // Read by no prompt; allowed so the documents the other judge routes take fit here too.
        metadata: z.record(z.string(), z.unknown()).optional(),
        text: z.string().trim().min(1, { error: "must not be empty" })
          .max(LIMITS.answerDocumentChars, {
            error: `must be at most ${LIMITS.answerDocumentChars} characters`,
          }),
      }),
    ]),
    { error: "must be an array of strings or {id?, title?, text, metadata?}" },
  ).min(1, { error: "must hold at least one passage" })
    .max(MAX_PASSAGES, { error: `must hold at most ${MAX_PASSAGES} passages` }),
  examples: z.array(querySchema, { error: "must be an array of strings" })
    .max(MAX_EXAMPLES, { error: `must hold at most ${MAX_EXAMPLES} examples` }).optional(),
  per_passage: z.number({ error: "must be a number" }).int({ error: "must be a whole number" })
    .min(1, { error: "must be at least 1" })
    .max(MAX_PER_PASSAGE, { error: `must be at most ${MAX_PER_PASSAGE}` }).optional(),
  models: z.array(z.string().trim().min(1, { error: "must not be empty" }).max(200), {
    error: "must be an array of model names",
  }).min(1, { error: "must name at least one model" })
    .max(MAX_MODELS, { error: `must name at most ${MAX_MODELS} models` }).optional(),
});

/** Judgments as the evaluators take them (`degraded` present only when true). */
function toJudgments(judgments: z.infer<typeof judgmentsSchema> | undefined) {
  return judgments?.map(({ degraded, ...judgment }) => ({
    ...judgment,
    ...(degraded ? { degraded } : {}),
  }));
}

function toDocuments(
  documents: z.infer<typeof inlineDocumentSchema>[] | undefined,
): JudgeDocument[] | undefined {
  return documents?.map((document) => typeof document === "string" ? { text: document } : document);
}

const limits = { maxBytes: LIMITS.ingestBodyBytes };

/** The evaluators (RAGElo, REBEL) as routes under `/v1/judge`. */
export function mountJudge(app: Hono<AppEnv>): void {
  app.post(
    "/v1/judge/retrieval",
    describe({
      tag: "judge",
      summary: "Grade each document 0/1/2 (RAGElo)",
      description: "One call per document, 4 at a time, cached.",
      body: retrievalSchema,
      responses: { 200: json("The judgment", retrievalJudgmentsSchema) },
      errors: [502],
    }),
    async (c) => {
      const body = await readJson(c, retrievalSchema, limits);
      return c.json(
        await judgeRetrieval(c.var.deps, {
          query: body.query,
          documents: toDocuments(body.documents) ?? [],
        }, c.req.raw.signal),
      );
    },
  );

  app.post(
    "/v1/judge/answer",
    describe({
      tag: "judge",
      summary: "Score an answer on relevance, accuracy, completeness, precision",
      description: "Each 0-2, judged with the documents at or above `relevance_threshold` (1).",
      body: answerSchema,
      responses: { 200: json("The judgment", answerJudgmentSchema) },
      errors: [502],
    }),
    async (c) => {
      const body = await readJson(c, answerSchema, limits);
      return c.json(
        await judgeAnswer(c.var.deps, {
          ...body,
          documents: toDocuments(body.documents),
          judgments: toJudgments(body.judgments),
        }, c.req.raw.signal),
      );
    },
  );

  app.post(
    "/v1/judge/pairwise",
    describe({
      tag: "judge",
      summary: "Judge two answers against each other",
      description: "Judged in both orders; the same winner twice wins, anything else is a tie.",
      body: pairwiseSchema,
      responses: { 200: json("The judgment", pairwiseJudgmentSchema) },
      errors: [502],
    }),
    async (c) => {
      const body = await readJson(c, pairwiseSchema, limits);
      return c.json(
        await judgePairwise(c.var.deps, {
          ...body,
          documents: toDocuments(body.documents),
          judgments: toJudgments(body.judgments),
        }, c.req.raw.signal),
      );
    },
  );

  app.post(
    "/v1/judge/similarity",
    describe({
      tag: "judge",
      summary: "REBEL's answer similarity to a reference, 0-5",
      body: similaritySchema,
      responses: { 200: json("The judgment", similarityJudgmentSchema) },
      errors: [502],
    }),
    async (c) => {
      const body = await readJson(c, similaritySchema, { maxBytes: LIMITS.bodyBytes });
      return c.json(await answerSimilarity(c.var.deps, body, c.req.raw.signal));
    },
  );

  app.post(
    "/v1/judge/synthetic-queries",
    describe({
      tag: "judge",
      summary: "Evaluation questions from passages (RAGElo §4)",
      description: "Few-shot guided by `examples`, from one or several `models`, deduplicated.",
      body: syntheticSchema,
      responses: { 200: json("The judgment", syntheticQueriesSchema) },
      errors: [502],
    }),
    async (c) => {
      const body = await readJson(c, syntheticSchema, limits);
      return c.json(await generateSyntheticQueries(c.var.deps, body, c.req.raw.signal));
    },
  );
}

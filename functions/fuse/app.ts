import type { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../shared/http/app-env.ts";
import { readJson, readRawJson, validate } from "../../shared/http/validate.ts";
import { LIMITS } from "../../shared/limits.ts";
import {
  metadataFilterSchema,
  namespaceSchema,
  querySchema,
  searchModeSchema,
  topKSchema,
} from "../../shared/schemas.ts";
import { DEFAULT_RRF_K, reciprocalRankFusion } from "../../shared/search/rrf.ts";
import { ragFusion } from "./fuse.ts";
import { search } from "./search.ts";
import { describe, json } from "../../shared/http/openapi.ts";
import {
  pureFusionResponseSchema,
  ragFusionResponseSchema,
  searchResponseSchema,
} from "./responses.ts";

const searchSchema = z.strictObject({
  query: querySchema,
  top_k: topKSchema.default(10),
  mode: searchModeSchema.default("hybrid"),
  filter: metadataFilterSchema.optional(),
  namespace: namespaceSchema,
});

const rrfKSchema = z.number({ error: "must be a number" }).min(0, { error: "must be at least 0" });

const fusionSchema = searchSchema.extend({
  variations: z.number().int().min(0).max(LIMITS.queryVariations, {
    error: `must be at most ${LIMITS.queryVariations}`,
  }).default(4),
  rrf_k: rrfKSchema.optional(),
});

const pureFusionSchema = z.strictObject({
  rankings: z.array(
    z.array(z.string({ error: "must be a string id" })).max(LIMITS.fuseRankingLength),
    { error: "must be an array of rankings (arrays of ids)" },
  ).min(1, { error: "must hold at least one ranking" }).max(LIMITS.fuseRankings),
  rrf_k: rrfKSchema.default(DEFAULT_RRF_K),
  weights: z.array(z.number({ error: "must be a number" }).min(0)).optional(),
}).refine((body) => !body.weights || body.weights.length === body.rankings.length, {
  path: ["weights"],
  error: "must have one weight per ranking",
});

/** Either body of `/v1/fuse`: the one with `rankings` is checked as pure fusion. */
const fuseBodySchema = z.union([fusionSchema, pureFusionSchema]);

/** `POST /v1/search` and `POST /v1/fuse` (RAG-Fusion, or pure RRF over given rankings). */
export function mountFuse(app: Hono<AppEnv>): void {
  app.post(
    "/v1/search",
    describe({
      tag: "fuse",
      summary: "Search one namespace",
      description: "Filters are `{field: value}` or `{field: {eq, ne, gt, gte, lt, lte, in}}`, " +
        "all ANDed; a list field matches when any element does.",
      body: searchSchema,
      responses: { 200: json("Best first", searchResponseSchema) },
      errors: [502],
    }),
    async (c) => {
      const body = await readJson(c, searchSchema, { maxBytes: LIMITS.bodyBytes });
      // c.get, not c.var (an object of every variable per read); the signal only where a
      // provider is called (reading it first makes Deno watch the connection for this request).
      const signal = body.mode === "sparse" ? undefined : c.req.raw.signal;
      const { hits, degraded, tokensIn } = await search(c.get("deps"), body, signal);
      return c.json({
        results: hits,
        ...(degraded ? { degraded: true as const, reason: degraded.reason } : {}),
        usage: { tokens_in: tokensIn, tokens_out: 0 },
      });
    },
  );

  app.post(
    "/v1/fuse",
    describe({
      tag: "fuse",
      summary: "RAG-Fusion, or reciprocal rank fusion of given rankings",
      description: "With `query`: the LLM writes `variations` queries, each is retrieved, the " +
        "rankings are fused. With `rankings`: only the fusion. " +
        "`score(d) = Σ_q w_q / (k + rank_q(d))`, ranks from 1, k = 60; ties break by the best " +
        "single rank, then by first appearance. Ties are decided on the exact sums (fractions " +
        "of `k` and the weights at their binary values), not on rounded floating-point ones; " +
        "exactly tied ids carry the same `rrf_score`.",
      body: fuseBodySchema,
      responses: {
        200: json(
          "Best first",
          z.union([ragFusionResponseSchema, pureFusionResponseSchema]),
        ),
      },
      errors: [502],
    }),
    async (c) => {
      const raw = await readRawJson(c, { maxBytes: LIMITS.bodyBytes });
      if (raw && typeof raw === "object" && "rankings" in raw) {
        const body = validate(pureFusionSchema, raw, fuseBodySchema);
        const fused = reciprocalRankFusion(body.rankings, {
          k: body.rrf_k,
          ...(body.weights ? { weights: body.weights } : {}),
        });
        return c.json({
          results: fused.map(({ id, rrf_score, ranks }) => ({ id, rrf_score, ranks })),
        });
      }
      const body = validate(fusionSchema, raw, fuseBodySchema);
      return c.json(await ragFusion(c.var.deps, body, c.req.raw.signal));
    },
  );
}

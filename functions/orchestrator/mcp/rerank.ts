import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp";
import { z } from "zod";
import { LIMITS } from "../../../shared/limits.ts";
import { MAX_WEIGHT, rubricSchema } from "../../../shared/rerank/rubric.ts";
import type { RerankStrategy } from "../../../shared/rerank/types.ts";
import { rerankStrategyNames } from "../../../shared/rerank/strategies.ts";
import { inlineDocumentSchema, querySchema, withoutReservedKeys } from "../../../shared/schemas.ts";
import { callStep } from "../../../shared/steps/call.ts";
import { resolveStep } from "../../../shared/steps/transport.ts";
import { runTool } from "./cancel.ts";
import type { McpContext } from "./context.ts";
import { toolResult } from "./results.ts";

const weightSchema = z.number().min(0).max(MAX_WEIGHT, { error: `must be in [0, ${MAX_WEIGHT}]` });

/** `POST /v1/rerank`'s fields, from the shared schemas that route validates them with. */
const rerankInput = {
  query: querySchema,
  documents: z.array(inlineDocumentSchema, {
    error: "must be an array of strings or {id?, text, metadata?}",
  }).min(1, { error: "must hold at least one document" }).max(LIMITS.rerankDocuments, {
    error: `must hold at most ${LIMITS.rerankDocuments} documents`,
  }),
  // The strategies defined when the tool is listed (an MCP client reads the enum).
  strategy: z.enum(rerankStrategyNames() as [RerankStrategy, ...RerankStrategy[]], {
    error: `must be one of ${rerankStrategyNames().join(", ")}`,
  }).default("two-turn").meta({
    description: "two-turn infers the criteria from the query (REBEL); one-turn uses five " +
      "fixed ones; relevance scores relevance alone; item and tot are ITEM and ToT-RAG",
  }),
  top_n: z.number().int().min(1, { error: "must be at least 1" }).optional(),
  rubric: rubricSchema.optional(),
  weights: withoutReservedKeys(
    z.union([weightSchema, z.record(z.string(), weightSchema), z.literal("rubric")], {
      error: `must be a number in [0, ${MAX_WEIGHT}], {criterion: weight} or "rubric"`,
    }),
    "is a reserved name, not a criterion",
  ).optional(),
};

const scoresSchema = z.object({
  relevance: z.number().nullable(),
  criteria: z.record(z.string(), z.number()),
  final: z.number(),
});

const rankedSchema = z.looseObject({
  index: z.number().int(),
  id: z.string().optional(),
  relevance_score: z.number().nullable(),
  scores: scoresSchema.nullable(),
  reason: z.string().optional(),
});

const rubricReplySchema = z.looseObject({
  criteria: z.array(z.looseObject({ name: z.string(), weight: z.number() })),
});

/** What the rerank function must send back; the rest passes through untouched. */
const rerankReplySchema = z.looseObject({
  results: z.array(rankedSchema),
  discarded: z.array(z.object({ index: z.number().int(), reason: z.string() })),
  rubric: rubricReplySchema.optional(),
  degraded: z.boolean(),
  warnings: z.array(z.string()).optional(),
});

const rerankOutput = {
  results: z.array(rankedSchema.extend({
    rank: z.number().int().meta({ description: "From 1, best first" }),
    contributions: z.record(z.string(), z.number()).optional().meta({
      description: "What each criterion adds to the final score: relevance, then weight × " +
        "score per criterion. They sum to `scores.final`.",
    }),
  })),
  discarded: z.array(z.object({ index: z.number().int(), reason: z.string() })),
  rubric: rubricReplySchema.optional(),
  degraded: z.boolean(),
  warnings: z.array(z.string()).optional(),
};

type Reply = z.infer<typeof rerankReplySchema>;

/** relevance + Σ weight · criterion, term by term: why a document scored what it did. */
function contributionsOf(
  scores: z.infer<typeof scoresSchema> | null,
  rubric: Reply["rubric"],
): Record<string, number> | undefined {
  if (!scores || scores.relevance === null || !rubric) return undefined;
  const round = (value: number) => Math.round(value * 1e6) / 1e6;
  return Object.fromEntries([
    ["relevance", scores.relevance],
    ...rubric.criteria.map((criterion) => [
      criterion.name,
      round(criterion.weight * (scores.criteria[criterion.name] ?? 0)),
    ]),
  ]);
}

/** A score as a person reads it: at most three decimals (`0.333`, not `0.3333333333333333`). */
const shown = (value: number) => Number(value.toFixed(3));

/** One result's score in words: the final score with what it is made of, where there is more. */
function scoreText(result: Reply["results"][number] | undefined): string {
  const scores = result?.scores;
  if (!scores) {
    // ITEM gives one score in (0, 1] and no breakdown.
    return result?.relevance_score == null ? "no score" : `score ${shown(result.relevance_score)}`;
  }
  const criteria = Object.entries(scores.criteria).map(([name, value]) =>
    `${name} ${shown(value)}`
  );
  if (criteria.length === 0) {
    // Relevance alone: the final score is the relevance, said once.
    return scores.relevance === null
      ? `final ${shown(scores.final)}`
      : `relevance ${shown(scores.relevance)}`;
  }
  const relevance = scores.relevance === null ? [] : [`relevance ${shown(scores.relevance)}`];
  return `final ${shown(scores.final)} (${[...relevance, ...criteria].join(", ")})`;
}

function rerankText(
  reply: Reply,
  ranked: { rank: number; index: number; id?: string | undefined }[],
): string {
  const lines = ranked.map((result) => {
    const found = reply.results.find((r) => r.index === result.index);
    const name = result.id ? `document ${result.index} (${result.id})` : `document ${result.index}`;
    return `${result.rank}. ${name}: ${scoreText(found)}`;
  });
  const discarded = reply.discarded.map((d) => `discarded document ${d.index}: ${d.reason}`);
  return [...lines, ...discarded].join("\n") || "No document was kept.";
}

/** `rerank`: the order, each document's per-criterion scores, the rubric and the discards. */
export function registerRerank(server: McpServer, context: McpContext): void {
  server.registerTool("rerank", {
    title: "Rerank documents",
    description: "Orders the given documents for the query by more than relevance and says " +
      "why: each document's relevance and per-criterion scores (and what each adds to its " +
      "final score), the rubric used, and the documents discarded with their reasons.",
    inputSchema: z.strictObject(rerankInput),
    outputSchema: rerankOutput,
    annotations: {
      title: "Rerank documents",
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
  }, (args, extra) =>
    runTool("rerank", context, extra, async (steps) => {
      const reply = await callStep(resolveStep("RERANK", steps), "/v1/rerank", {
        ...args,
        explain: true,
      }, { schema: rerankReplySchema, context: steps, timeoutMs: steps.config.steps.timeoutMs });
      const results = reply.results.map((result, position) => {
        const contributions = contributionsOf(result.scores, reply.rubric);
        return { ...result, rank: position + 1, ...(contributions ? { contributions } : {}) };
      });
      return toolResult({
        results,
        discarded: reply.discarded,
        ...(reply.rubric ? { rubric: reply.rubric } : {}),
        degraded: reply.degraded,
        ...(reply.warnings ? { warnings: reply.warnings } : {}),
      }, rerankText(reply, results));
    }));
}

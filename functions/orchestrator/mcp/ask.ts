import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp";
import { z } from "zod";
import { metadataFilterSchema, namespaceSchema, querySchema } from "../../../shared/schemas.ts";
import { StepClock } from "../../../shared/steps/clock.ts";
import type { SearchHit } from "../../../shared/vector/port.ts";
import { pipelineSchema } from "../../../shared/pipeline.ts";
import { CHAT_PRESETS } from "../openai/presets.ts";
import { type QueryEventArgs, type QueryEventData, rerankScores } from "../events.ts";
import { runQuery } from "../query.ts";
import { runTool } from "./cancel.ts";
import type { McpContext } from "./context.ts";
import { progressReporter } from "./progress.ts";
import { toolResult } from "./results.ts";
import { passageOf, passageSchema } from "./search.ts";
import { resourceUri } from "./uri.ts";

/** The chat presets (`sift-two-turn` is `two-turn` here): one pipeline each. */
export const ASK_PRESETS = Object.keys(CHAT_PRESETS).map((name) => name.replace(/^sift-/, "")) as [
  string,
  ...string[],
];

const askInput = {
  query: querySchema,
  preset: z.enum(ASK_PRESETS, { error: `must be one of ${ASK_PRESETS.join(", ")}` })
    .default("two-turn").meta({
      description: "The pipeline: none (retrieve, answer), one-turn or two-turn (REBEL " +
        "rerank), relevance, item (ITEM), tot (ToT-RAG), fusion (RAG-Fusion retrieval)...",
    }),
  namespace: namespaceSchema,
  filter: metadataFilterSchema.optional(),
};

const citationSchema = z.object({
  index: z.number().int().meta({ description: "The `[n]` in the answer" }),
  id: z.string().optional(),
  doc_id: z.string().optional(),
  title: z.string().optional(),
  url: z.string().optional(),
  section: z.string().optional().meta({ description: "The passage's heading path, `A > B`" }),
  page: z.number().int().optional(),
  page_end: z.number().int().optional(),
  chunk_index: z.number().int().optional(),
  label: z.string().optional().meta({
    description: "Title, section and page: `RoBERTa, §4.1, p. 6`",
  }),
  uri: z.string().optional().meta({ description: "Open it with resources/read" }),
});

const askOutput = {
  answer: z.string(),
  answered: z.boolean().meta({ description: "False when the documents do not answer it" }),
  citations: z.array(citationSchema),
  sources: z.array(passageSchema.extend({ index: z.number().int() })).meta({
    description: "The passages the answer was given: `[n]` cites `sources[n - 1]`; `score` is " +
      "the rerank's final score, else retrieval's",
  }),
  preset: z.string(),
  steps: z.array(z.looseObject({ name: z.string(), via: z.string() })).meta({
    description: "Each step: when it ran, its tokens, its `cost_usd`, and `via` (in-process, " +
      "binding or http)",
  }),
  cost_usd: z.number().nullable().meta({
    description: "USD over every step, as `/v1/query`'s usage event says (docs/tracing.md); " +
      "null when a step's model has no known price",
  }),
};

/** The cost line of `ask`'s text: what its `structuredContent.cost_usd` holds, in words. */
export function costText(cost: number | null): string {
  if (cost === null) return "Cost: unknown (a step's model has no known price)";
  // Three significant digits in plain decimals: one answer costs fractions of a cent.
  const digits = cost > 0 ? Math.min(12, Math.max(2, 2 - Math.floor(Math.log10(cost)))) : 2;
  return `Cost: $${cost.toFixed(digits)} (USD, every step)`;
}

/** The criteria's names of a rubric a `rubric-end` event carries (another function's reply). */
function criteriaNames(rubric: unknown): string[] {
  const criteria = (rubric as { criteria?: unknown } | null)?.criteria;
  if (!Array.isArray(criteria)) return [];
  return criteria.flatMap((criterion) =>
    typeof criterion?.name === "string" ? [criterion.name] : []
  );
}

/** What each pipeline event tells a client watching the progress. */
function progressMessage(...[event, data]: QueryEventArgs): string | undefined {
  switch (event) {
    case "retrieval-end":
      return `retrieval done: ${data.results.length} passages`;
    case "rubric-end":
      return `rubric: ${criteriaNames(data.rubric).join(", ")}`;
    case "rerank-end":
      return `reranked: kept ${data.results.length}, discarded ${data.discarded.length}`;
    case "answer-delta":
      return data.text;
    default:
      return undefined;
  }
}

/**
 * `ask`: a cited answer through the `/v1/query` pipeline of a chat preset,
 * with progress notifications as each stage ends and as answer text arrives.
 */
export function registerAsk(server: McpServer, context: McpContext): void {
  server.registerTool("ask", {
    title: "Ask a question",
    description: "Answers a question from the documents, citing them as [n]: retrieval, " +
      "optional reranking (the preset), then a grounded answer. Citations carry sift:// URIs " +
      "that resources/read opens. Sends progress (retrieval, rubric, rerank, answer tokens).",
    inputSchema: z.strictObject(askInput),
    outputSchema: askOutput,
    annotations: {
      title: "Ask a question",
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: false,
    },
  }, (args, extra) => {
    const report = progressReporter(extra);
    return runTool("ask", context, extra, async (steps) => {
      const pipeline = pipelineSchema.parse({
        ...CHAT_PRESETS[`sift-${args.preset}`]!.pipeline,
        namespace: args.namespace,
        ...(args.filter ? { filter: args.filter } : {}),
      });
      const clock = new StepClock();
      let documents: readonly SearchHit[] = [];
      let answered: QueryEventData["answer-end"] | undefined;
      let scores = new Map<string, number>();
      let usage: QueryEventData["usage"] | undefined;
      await runQuery(steps, {
        query: args.query,
        pipeline,
        onAnswerDocuments: (given) => (documents = given),
      }, async (...args) => {
        const [event, data] = args;
        if (event === "answer-end") answered = data;
        if (event === "rerank-end") scores = rerankScores(data);
        if (event === "usage") usage = data;
        const message = progressMessage(...args);
        if (message) await report(message);
      }, clock);
      if (!answered) throw new Error("the pipeline ended without an answer");
      const sources = documents.map((hit, i) => ({
        index: i + 1,
        ...passageOf(hit, args.namespace),
        score: scores.get(hit.id) ?? hit.score,
      }));
      const citations = answered.citations.map((citation) => {
        const source = sources[citation.index - 1];
        return { ...citation, ...(source ? { uri: resourceUri(args.namespace, source.id) } : {}) };
      });
      const cited = citations.map((citation) =>
        `[${citation.index}] ${[citation.label, citation.uri].filter(Boolean).join(" — ")}`
      );
      const cost = usage?.cost_usd ?? null;
      const text = [answered.answer, cited.join("\n"), costText(cost)].filter(Boolean);
      return toolResult({
        answer: answered.answer,
        answered: answered.answered,
        citations,
        sources,
        preset: args.preset,
        // The usage event's steps are the clock's, each priced.
        steps: usage?.steps ?? clock.steps,
        cost_usd: cost,
      }, text.join("\n\n"));
    });
  });
}

import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp";
import { z } from "zod";
import {
  metadataFilterSchema,
  namespaceSchema,
  querySchema,
  searchModeSchema,
  topKSchema,
} from "../../../shared/schemas.ts";
import { resolveStep } from "../../../shared/steps/transport.ts";
import { searchStep } from "../steps.ts";
import { runTool } from "./cancel.ts";
import type { McpContext } from "./context.ts";
import { toolResult } from "./results.ts";
import { resourceUri } from "./uri.ts";

/** `POST /v1/search`'s fields, from the schemas that route validates them with. */
export const searchInput = {
  query: querySchema,
  mode: searchModeSchema.default("hybrid"),
  top_k: topKSchema.default(10),
  namespace: namespaceSchema,
  filter: metadataFilterSchema.optional(),
};

export const passageSchema = z.object({
  id: z.string(),
  doc_id: z.string(),
  uri: z.string().meta({ description: "`sift://<namespace>/<id>`: open it with resources/read" }),
  title: z.string().optional(),
  url: z.string().optional(),
  score: z.number(),
  text: z.string(),
});

const searchOutput = {
  results: z.array(passageSchema),
  degraded: z.boolean(),
  reason: z.string().optional(),
};

export type Passage = z.infer<typeof passageSchema>;

/** A hit as a tool shows it: the fields an agent cites by, and the URI to open it. */
export function passageOf(
  hit: {
    id: string;
    doc_id: string;
    text: string;
    score: number;
    metadata: Record<string, unknown>;
  },
  namespace: string,
): Passage {
  const { title, url } = hit.metadata;
  return {
    id: hit.id,
    doc_id: hit.doc_id,
    uri: resourceUri(namespace, hit.id),
    ...(typeof title === "string" && title ? { title } : {}),
    ...(typeof url === "string" && url ? { url } : {}),
    score: hit.score,
    text: hit.text,
  };
}

/** Numbered passages as an agent reads them in plain text. */
export function passagesText(passages: readonly Passage[]): string {
  if (passages.length === 0) return "No passages matched.";
  return passages.map((passage, i) =>
    `[${i + 1}] ${passage.title ?? passage.doc_id} (${passage.uri}, score ${
      passage.score.toFixed(4)
    })\n${passage.text}`
  ).join("\n\n");
}

/** `search`: one query's passages, through the fuse function's `/v1/search`. */
export function registerSearch(server: McpServer, context: McpContext): void {
  server.registerTool("search", {
    title: "Search documents",
    description: "Finds passages in a namespace: hybrid (BM25 + dense, fused), dense or sparse. " +
      "Each passage has its id, title, url, score and a sift:// URI to open it.",
    inputSchema: z.strictObject(searchInput),
    outputSchema: searchOutput,
    annotations: {
      title: "Search documents",
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
  }, (args, extra) =>
    runTool("search", context, extra, async (steps) => {
      const retrieved = await searchStep(resolveStep("FUSE", steps), steps, {
        query: args.query,
        retrieval: { mode: args.mode, top_k: args.top_k, fusion: 0 },
        namespace: args.namespace,
        ...(args.filter ? { filter: args.filter } : {}),
      });
      const results = retrieved.results.map((hit) => passageOf(hit, args.namespace));
      return toolResult({
        results,
        degraded: Boolean(retrieved.degraded),
        ...(retrieved.reason ? { reason: retrieved.reason } : {}),
      }, passagesText(results));
    }));
}

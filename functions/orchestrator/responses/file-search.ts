import { z } from "zod";
import { validateOpenAI } from "../../../shared/http/validate.ts";
import type { StepContext } from "../../../shared/steps/transport.ts";
import type { SearchHit } from "../../../shared/vector/port.ts";
import type { Source } from "../openai/citations.ts";
import { attributesOf } from "../openai-files/attributes.ts";
import { filterSchema } from "../openai-files/filters.ts";
import { searchStoreHits, SIFT_RANKERS } from "../openai-files/store-search.ts";
import { storeRecordOf } from "../openai-files/vector-stores.ts";

/** What `file_search` answers from unless `max_num_results` says otherwise. */
const DEFAULT_RESULTS = 10;

/** The Responses API's `file_search` tool, as OpenAI documents it. */
export const fileSearchToolSchema = z.strictObject({
  type: z.literal("file_search"),
  vector_store_ids: z.array(z.string().max(100), { error: "must be an array of store ids" })
    .min(1, { error: "must name at least one vector store" })
    .max(10, { error: "must name at most 10 vector stores" }),
  max_num_results: z.number().int().min(1, { error: "must be at least 1" })
    .max(50, { error: "must be at most 50" }).optional(),
  filters: filterSchema.nullish(),
  ranking_options: z.strictObject({
    ranker: z.enum(["auto", "default-2024-11-15", "none", ...SIFT_RANKERS]).optional(),
    score_threshold: z.number().min(0).max(1).optional(),
    hybrid_search: z.strictObject({
      embedding_weight: z.number().min(0, { error: "must be at least 0" }).max(100),
      text_weight: z.number().min(0, { error: "must be at least 0" }).max(100),
    }).refine((weights) => weights.embedding_weight + weights.text_weight > 0, {
      error: "embedding_weight and text_weight must not both be 0",
    }).optional().meta({
      description: "RRF weights of the dense and keyword rankings (sift's default: equal)",
    }),
  }).optional(),
});

export type FileSearchTool = z.infer<typeof fileSearchToolSchema>;

/**
 * The request's `file_search` tool, checked (a 400 naming `tools.0.<field>`),
 * and every store it names looked up first: an unknown one is a 404 naming
 * it before any work starts.
 */
export async function readFileSearch(
  context: StepContext,
  tool: unknown,
): Promise<FileSearchTool> {
  const checked = validateOpenAI(z.strictObject({ tools: z.tuple([fileSearchToolSchema]) }), {
    tools: [tool],
  });
  const fileSearch = checked.tools[0];
  for (const id of fileSearch.vector_store_ids) await storeRecordOf(context, id);
  return fileSearch;
}

/** Every store searched for the query, merged by score (each scaled to [0, 1]), best first. */
export async function fileSearchHits(
  context: StepContext,
  tool: FileSearchTool,
  query: string,
): Promise<SearchHit[]> {
  const wanted = tool.max_num_results ?? DEFAULT_RESULTS;
  const { hybrid_search: weights, ...ranking } = tool.ranking_options ?? {};
  const search = {
    query,
    filters: tool.filters,
    max_num_results: wanted,
    ranking_options: ranking,
  };
  const perStore = await Promise.all(
    tool.vector_store_ids.map(async (id) =>
      (await searchStoreHits(context, id, search, weights)).hits
    ),
  );
  return perStore.flat().sort((a, b) => b.score - a.score).slice(0, wanted);
}

/** The `file_search_call` output item: its queries, and its results when `include` asks. */
export function fileSearchCallItem(
  id: string,
  search: { queries: string[]; hits?: readonly SearchHit[] | undefined; include: boolean },
) {
  const done = search.hits !== undefined;
  return {
    type: "file_search_call" as const,
    id,
    status: done ? "completed" as const : "in_progress" as const,
    queries: search.queries,
    results: done && search.include
      ? search.hits!.map((hit) => ({
        file_id: hit.doc_id,
        filename: typeof hit.metadata.source === "string" ? hit.metadata.source : hit.doc_id,
        score: hit.score,
        attributes: attributesOf(hit.metadata),
        text: hit.text,
      }))
      : null,
  };
}

export type FileCitation = {
  type: "file_citation";
  file_id: string;
  filename: string;
  index: number;
};

/**
 * OpenAI's `file_citation` annotations for the answer's `[n]` markers (also
 * `[1][3]` and `[1, 3]`): one per cited source, at the marker's start, naming
 * the file the passage came from.
 */
export function fileCitations(content: string, sources: readonly Source[]): FileCitation[] {
  const citations: FileCitation[] = [];
  for (const marker of content.matchAll(/\[(\d+(?:\s*[,;]\s*\d+)*)\]/g)) {
    for (const number of marker[1]!.split(/[,;]/)) {
      const source = sources[Number(number.trim()) - 1];
      if (!source) continue;
      citations.push({
        type: "file_citation",
        file_id: source.doc_id,
        filename: source.title ?? source.doc_id,
        index: marker.index,
      });
    }
  }
  return citations;
}

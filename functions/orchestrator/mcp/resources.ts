import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp";
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { LIMITS } from "../../../shared/limits.ts";
import type { Retrieved } from "../steps.ts";
import { searchStep } from "../steps.ts";
import { DEFAULT_NAMESPACE, type MetadataFilter } from "../../../shared/vector/port.ts";
import { resolveStep, type StepContext } from "../../../shared/steps/transport.ts";
import type { McpContext } from "./context.ts";
import { chunkIdParts, parseResourceUri, resourceUri } from "./uri.ts";

/**
 * Chunks that pass `filter`, through the fuse function's `/v1/search`: a
 * dense search scores every chunk the filter lets through, so it also finds
 * those that share nothing with the query. The step interface has no listing
 * of its own; this keeps resources one more use of the same route.
 */
async function chunksWhere(
  steps: StepContext,
  namespace: string,
  filter: MetadataFilter,
  limit: number,
): Promise<Retrieved["results"]> {
  const retrieved = await searchStep(resolveStep("FUSE", steps), steps, {
    query: "document",
    retrieval: { mode: "dense", top_k: limit, fusion: 0 },
    namespace,
    filter,
  });
  return retrieved.results;
}

function cursorOf(after: string): string {
  return btoa(encodeURIComponent(after));
}

function afterOf(cursor: string | undefined): string | undefined {
  if (cursor === undefined) return undefined;
  try {
    return decodeURIComponent(atob(cursor));
  } catch {
    throw new McpError(ErrorCode.InvalidParams, "cursor: not one this server gave");
  }
}

/**
 * One page of documents, by id, after `after`: their first chunks, whose ids
 * a search cannot order, are asked for in a range of ids that shrinks until
 * it holds fewer than a search returns, so the page misses none.
 */
async function documentPage(steps: StepContext, namespace: string, after: string | undefined) {
  const limit = LIMITS.topK;
  let upper: string | undefined;
  while (true) {
    const range = {
      ...(after !== undefined ? { gt: after } : {}),
      ...(upper ? { lte: upper } : {}),
    };
    const filter: MetadataFilter = {
      chunk_index: 0,
      ...(Object.keys(range).length ? { doc_id: range } : {}),
    };
    const hits = (await chunksWhere(steps, namespace, filter, limit))
      .sort((a, b) => (a.doc_id < b.doc_id ? -1 : a.doc_id > b.doc_id ? 1 : 0));
    if (hits.length < limit) return { hits, complete: upper === undefined };
    upper = hits[Math.floor(limit / 2) - 1]!.doc_id;
  }
}

const textOf = (value: unknown) => (typeof value === "string" && value ? value : undefined);

/**
 * Documents as resources: `resources/list` pages through the default
 * namespace's documents (`sift://default/<doc id>`); `resources/read` opens
 * a document (each chunk, under its own URI) or one chunk
 * (`sift://<namespace>/<doc id>%23<n>`, the URI a citation carries), with
 * the chunk's metadata in `_meta`.
 */
export function registerResources(server: McpServer, context: McpContext): void {
  server.server.registerCapabilities({ resources: {} });

  server.server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: [{
      uriTemplate: "sift://{namespace}/{id}",
      name: "document",
      title: "A document or one of its chunks",
      description: "`id` is a document id, or a chunk id `<doc id>#<n>` percent-encoded as " +
        "citations carry it",
      mimeType: "text/plain",
    }],
  }));

  server.server.setRequestHandler(ListResourcesRequestSchema, async (request, extra) => {
    const steps = { ...context.steps, signal: extra.signal };
    const page = await documentPage(steps, DEFAULT_NAMESPACE, afterOf(request.params?.cursor));
    const last = page.hits.at(-1);
    return {
      resources: page.hits.map((hit) => ({
        uri: resourceUri(DEFAULT_NAMESPACE, hit.doc_id),
        name: hit.doc_id,
        ...(textOf(hit.metadata.title) ? { title: textOf(hit.metadata.title) } : {}),
        mimeType: "text/plain",
      })),
      ...(!page.complete && last ? { nextCursor: cursorOf(last.doc_id) } : {}),
    };
  });

  server.server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
    const named = parseResourceUri(request.params.uri);
    if (!named) {
      throw new McpError(ErrorCode.InvalidParams, "uri: must be sift://<namespace>/<id>");
    }
    const steps = { ...context.steps, signal: extra.signal };
    const chunk = chunkIdParts(named.id);
    let hits = chunk
      ? await chunksWhere(steps, named.namespace, {
        doc_id: chunk.docId,
        chunk_index: chunk.chunkIndex,
      }, 1)
      : [];
    if (hits.length === 0) {
      hits = (await chunksWhere(steps, named.namespace, { doc_id: named.id }, LIMITS.topK))
        .sort((a, b) => a.metadata.chunk_index - b.metadata.chunk_index);
    }
    if (hits.length === 0) {
      throw new McpError(-32002, `Resource not found: ${request.params.uri}`, {
        uri: request.params.uri,
      });
    }
    return {
      contents: hits.map((hit) => ({
        uri: resourceUri(named.namespace, hit.id),
        mimeType: "text/plain",
        text: hit.text,
        _meta: { id: hit.id, ...hit.metadata },
      })),
    };
  });
}

import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp";
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { DEFAULT_NAMESPACE } from "../../../shared/vector/port.ts";
import { StepError } from "../../../shared/steps/call.ts";
import { resolveStep, type StepContext } from "../../../shared/steps/transport.ts";
import { listDocumentsStep, readDocumentStep } from "../document-steps.ts";
import type { McpContext } from "./context.ts";
import { chunkIdParts, parseResourceUri, resourceUri } from "./uri.ts";

/** Documents per `resources/list` page. */
const RESOURCE_PAGE = 100;

/** A page of the namespace's documents through the EMBED step; a bad cursor is the client's mistake. */
async function documentPage(steps: StepContext, namespace: string, cursor: string | undefined) {
  try {
    return await listDocumentsStep(resolveStep("EMBED", steps), steps, {
      namespace,
      limit: RESOURCE_PAGE,
      cursor,
    });
  } catch (error) {
    if (error instanceof StepError && error.stepStatus === 400) {
      throw new McpError(ErrorCode.InvalidParams, "cursor: not one this server gave");
    }
    throw error;
  }
}

/**
 * The chunks a URI names: one chunk (`<doc id>#<n>`), or a whole document's,
 * read back through the EMBED step's `GET /v1/documents/:id`.
 */
async function chunksNamed(steps: StepContext, namespace: string, id: string) {
  const embed = resolveStep("EMBED", steps);
  const chunk = chunkIdParts(id);
  if (chunk) {
    const document = await readDocumentStep(embed, steps, { namespace, id: chunk.docId });
    const named = document?.data.filter((stored) => stored.id === id) ?? [];
    if (named.length) return named;
  }
  return (await readDocumentStep(embed, steps, { namespace, id }))?.data ?? [];
}

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
    const page = await documentPage(steps, DEFAULT_NAMESPACE, request.params?.cursor);
    return {
      resources: page.data.map((document) => ({
        uri: resourceUri(DEFAULT_NAMESPACE, document.id),
        name: document.id,
        ...(document.title ? { title: document.title } : {}),
        mimeType: "text/plain",
      })),
      ...(page.next_cursor ? { nextCursor: page.next_cursor } : {}),
    };
  });

  server.server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
    const named = parseResourceUri(request.params.uri);
    if (!named) {
      throw new McpError(ErrorCode.InvalidParams, "uri: must be sift://<namespace>/<id>");
    }
    const steps = { ...context.steps, signal: extra.signal };
    const hits = await chunksNamed(steps, named.namespace, named.id);
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

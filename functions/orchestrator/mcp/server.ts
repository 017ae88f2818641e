// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import { CancelledNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import type { jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types";
import { registerAsk } from "./ask.ts";
import { recordCancellation } from "./cancel.ts";
import type { McpContext } from "./context.ts";
import { registerIngest } from "./ingest.ts";
import { registerRerank } from "./rerank.ts";
import { registerResources } from "./resources.ts";
import { registerSearch } from "./search.ts";

/** sift never asks the client for input (elicitation), so it needs no JSON Schema compiler. */
const noElicitation: jsonSchemaValidator = {
  getValidator: () => () => ({
    valid: false,
    data: undefined,
    errorMessage: "sift does not validate client-side schemas",
  }),
};

const VERSION = "1.0.0";

/**
 * sift's MCP server for one HTTP request (stateless: nothing of it outlives
 * the request, so any isolate or process can answer the next one). Tools and
 * resources call the functions through the request's step context.
 */
export function createMcpServer(context: McpContext): McpServer {
  const server = new McpServer({ name: "sift", title: "sift", version: VERSION }, {
    capabilities: { logging: {} },
    jsonSchemaValidator: noElicitation,
    instructions: "sift answers questions over a document collection with citations, and " +
      "reranks documents by more than relevance, explaining each score. Use `ask` for a cited " +
      "answer, `search` for passages, `rerank` to order your own candidates; open a citation's " +
      "sift:// URI with resources/read.",
  });
  registerSearch(server, context);
  registerAsk(server, context);
  registerRerank(server, context);
  if (!context.readOnly) registerIngest(server, context);
  registerResources(server, context);
  // The call it names runs in another request (perhaps another isolate): tell it through state.
  server.server.setNotificationHandler(CancelledNotificationSchema, async (notification) => {
    const { requestId } = notification.params;
    if (requestId !== undefined) await recordCancellation(context, requestId);
  });
  return server;
}

// @ts-types="@modelcontextprotocol/sdk/server/webStandardStreamableHttp"
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { createMcpServer } from "./server.ts";

/**
 * A new MCP server for one request, connected to a stateless transport. Its
 * own module, imported on the first `/mcp` request: the SDK is about a fifth
 * of the whole server's start-up, and most servers never see an MCP client.
 */
export async function connectedServer(options: Parameters<typeof createMcpServer>[0]) {
  const server = createMcpServer(options);
  // No sessionIdGenerator: stateless, no session id is issued or expected.
  const transport = new WebStandardStreamableHTTPServerTransport({});
  await server.connect(transport);
  return { server, transport };
}

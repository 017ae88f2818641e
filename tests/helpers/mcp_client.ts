/** The official MCP SDK client, connected to a sift `/mcp` over Streamable HTTP. */
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

export type McpConnection = { client: Client; close: () => Promise<void> };

/** Connects (initialize + initialized) to `${baseUrl}/mcp`, with a bearer key when given. */
export async function connectMcp(
  baseUrl: string,
  options: { apiKey?: string; fetch?: typeof fetch } = {},
): Promise<McpConnection> {
  const transport = new StreamableHTTPClientTransport(new URL("/mcp", baseUrl), {
    ...(options.apiKey
      ? { requestInit: { headers: { authorization: `Bearer ${options.apiKey}` } } }
      : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const client = new Client({ name: "sift-tests", version: "1.0.0" });
  await client.connect(transport);
  return { client, close: () => client.close() };
}

/** A tool result's text content, joined. */
export function textOf(result: object): string {
  const content = "content" in result && Array.isArray(result.content) ? result.content : [];
  return content.map((part: { type?: string; text?: string }) =>
    part.type === "text" ? part.text : ""
  ).join("\n");
}

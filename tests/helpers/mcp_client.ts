import assert from "node:assert/strict";
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

/** The four tools, each with input and output schemas, a title and annotations. */
export async function assertFourTools(
  client: Client,
): Promise<Awaited<ReturnType<Client["listTools"]>>["tools"]> {
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((tool) => tool.name).sort(), ["ask", "ingest", "rerank", "search"]);
  for (const tool of tools) {
    assert.equal(tool.inputSchema.type, "object", tool.name);
    assert.equal(tool.outputSchema?.type, "object", tool.name);
    assert.ok(tool.title && tool.annotations?.title, tool.name);
    assert.equal(typeof tool.annotations?.readOnlyHint, "boolean", tool.name);
  }
  return tools;
}

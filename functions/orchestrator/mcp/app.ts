import type { Context, Hono } from "hono";
import { z } from "zod";
import { readBodyText } from "../../../shared/http/body.ts";
import { InvalidRequestError } from "../../../shared/errors.ts";
import { jsonSyntaxError } from "../../../shared/http/json-syntax.ts";
import { requireJsonContentType } from "../../../shared/http/content-type.ts";
import { sha256Hex } from "../../../shared/hash.ts";
import { dataStreamContent, describe, jsonContent } from "../../../shared/http/openapi.ts";
import type { AppEnv } from "../../../shared/http/app-env.ts";
import { LIMITS } from "../../../shared/limits.ts";
import { errorBodySchema } from "../../../shared/responses.ts";
import { originOf } from "../../../shared/ratelimit/origin.ts";
import { invalidEnvelope } from "./envelope.ts";

/** What `/openapi.json` says of a message: JSON-RPC 2.0 (a request, notification or response). */
const rpcMessageSchema = z.looseObject({
  jsonrpc: z.literal("2.0"),
  id: z.union([z.string(), z.number(), z.null()]).optional(),
  method: z.string().optional(),
  params: z.record(z.string(), z.unknown()).optional(),
  result: z.record(z.string(), z.unknown()).optional(),
  error: z.looseObject({ code: z.number().int(), message: z.string() }).optional(),
}).meta({ description: "A JSON-RPC 2.0 message of the Model Context Protocol" });

/** A JSON-RPC error outside any call (no id): what the SDK's transport answers with too. */
function rpcError(c: Context, status: 400 | 405, code: number, message: string) {
  return c.json({ jsonrpc: "2.0", error: { code, message }, id: null }, status);
}

/**
 * Who is calling, for cancellations (JSON-RPC ids are unique per client only):
 * the key and the client's address, hashed, so neither reaches the cache's key names.
 */
async function callerOf(c: Context<AppEnv>): Promise<string> {
  const origin = originOf(c.req.raw);
  const address = origin.kind === "external" ? origin.address ?? "" : origin.kind;
  const key = c.req.header("authorization") ?? "";
  return (await sha256Hex(`${key}\n${address}`)).slice(0, 32);
}

/**
 * `/mcp`: the Model Context Protocol over Streamable HTTP, on the official
 * SDK's web-standard transport, stateless: each POST gets a new server and
 * transport, so any process or isolate answers any request (Workers, Deno
 * Deploy). Auth, rate limits, the Origin check and the body limit are the
 * app's, as on every route; `GET` (a standalone event stream) and `DELETE`
 * (ending a session) have no meaning without sessions and answer 405.
 */
export function mountMcp(app: Hono<AppEnv>): void {
  // Middleware, not routes: they are not operations of the API, only the protocol's refusals.
  app.use("/mcp/*", async (c, next) => {
    if (c.req.path !== "/mcp" || (c.req.method !== "GET" && c.req.method !== "DELETE")) {
      return await next();
    }
    c.header("allow", "POST");
    return rpcError(c, 405, -32000, "Method not allowed: this server is stateless (POST only)");
  });
  app.post(
    "/mcp",
    describe({
      tag: "orchestrator",
      summary: "Model Context Protocol (Streamable HTTP)",
      description: "JSON-RPC messages of the Model Context Protocol, stateless: tools `search`, " +
        "`ask`, `rerank` and `ingest` (not with `MCP_READ_ONLY=true`), documents as " +
        "`sift://<namespace>/<id>` resources. Replies are JSON or an event stream " +
        "(`text/event-stream`, with progress notifications) as the client accepts. Use an " +
        "MCP client (see docs/mcp.md), not this description.",
      body: z.union([rpcMessageSchema, z.array(rpcMessageSchema)]),
      responses: {
        200: {
          description: "The JSON-RPC response, or an event stream of JSON-RPC messages (progress " +
            "notifications, then the response). A body of notifications alone gets 202, empty",
          content: { ...jsonContent(rpcMessageSchema), ...dataStreamContent(rpcMessageSchema) },
        },
        406: {
          description: "`Accept` must list both application/json and text/event-stream",
        },
      },
      // The shell's refusals (401, 403, 413, 415, 429) are sift's; the protocol's are JSON-RPC's.
      errorBody: z.union([errorBodySchema, rpcMessageSchema]),
    }),
    async (c) => {
      requireJsonContentType(c.req.raw);
      let text: string;
      try {
        text = await readBodyText(c.req.raw, LIMITS.ingestBodyBytes, {
          timeoutMs: c.var.config.bodyReadTimeoutMs,
        });
      } catch (error) {
        if (!(error instanceof InvalidRequestError)) throw error;
        return rpcError(c, 400, -32700, `Parse error: ${error.message}`);
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return rpcError(c, 400, -32700, `Parse error: ${jsonSyntaxError(text)}`);
      }
      const invalid = invalidEnvelope(parsed);
      if (invalid) return rpcError(c, 400, -32600, `Invalid Request: ${invalid}`);
      const { connectedServer } = await import("./connect.ts");
      const { server, transport } = await connectedServer({
        steps: c.var.steps,
        cache: c.var.deps.cache,
        caller: await callerOf(c),
        readOnly: c.var.config.mcpReadOnly,
      });
      // Closed with the request: a client that leaves ends this server's work.
      c.req.raw.signal.addEventListener("abort", () => void server.close(), { once: true });
      return await transport.handleRequest(c.req.raw, { parsedBody: parsed });
    },
  );
}

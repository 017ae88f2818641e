import type { ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol";
import type { ResilientCache } from "../../../shared/cache/resilient.ts";
import type { StepContext } from "../../../shared/steps/transport.ts";

/** What a tool handler receives from the SDK with each call (signal, progress token, notify). */
export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** What the MCP front door hands its tools: one HTTP request's steps and state. */
export type McpContext = {
  /** The request's step context: tools call the functions through it, as `/v1/query` does. */
  steps: StepContext;
  /** Platform state (memory, the Durable Object, Upstash): cancellations across requests. */
  cache: ResilientCache;
  /** Who is calling, hashed: JSON-RPC ids are unique only per client. */
  caller: string;
  /** `MCP_READ_ONLY=true`: write tools are not offered. */
  readOnly: boolean;
};

import type { CallToolResult } from "@modelcontextprotocol/sdk/types";
import { z } from "zod";
import { SiftError } from "../../../shared/errors.ts";

/**
 * A tool's success: the structured result its `outputSchema` describes, and
 * the same as readable text for clients that show only `content`.
 */
export function toolResult(structured: Record<string, unknown>, text: string): CallToolResult {
  return { content: [{ type: "text", text }], structuredContent: structured };
}

/**
 * A failed tool call as a tool result (`isError`), never a protocol error:
 * the model reads the message and can fix its arguments. Public messages
 * (a bad field, a step that failed) pass through; anything else is generic,
 * as `app.onError` keeps internal messages from callers.
 */
export function toolError(error: unknown, signal?: AbortSignal): CallToolResult {
  return { content: [{ type: "text", text: messageOf(error, signal) }], isError: true };
}

function messageOf(error: unknown, signal: AbortSignal | undefined): string {
  if (signal?.aborted) return "The call was cancelled";
  if (error instanceof z.ZodError) {
    return error.issues.map((issue) => `${issue.path.join(".") || "arguments"}: ${issue.message}`)
      .join("; ");
  }
  if (error instanceof SiftError && (error.status < 500 || error.type !== "internal_error")) {
    return error.message;
  }
  console.error("an MCP tool failed:", error);
  return "The tool failed on the server; try again later";
}

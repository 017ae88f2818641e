import { ChatRequestError } from "./errors.ts";

/**
 * Tools are refused, never dropped: sift answers from its own retrieval
 * pipeline and returns no tool calls, so a request that offers the model
 * tools (and does not forbid their use with `tool_choice: "none"`) would get
 * an answer that silently ignored them. A 400 names the field and says why.
 * An empty list, or tools with `tool_choice: "none"`, asks for no call and
 * is served.
 *
 * @example
 * refuseTools({ tools: [{ type: "function", function: { name: "f" } }] }, "chat"); // throws
 */
export function refuseTools(
  body: { tools?: unknown; tool_choice?: unknown; functions?: unknown; function_call?: unknown },
  api: "chat" | "responses",
): void {
  if (body.tool_choice === "none") return;
  if (Array.isArray(body.tools) && body.tools.length > 0) {
    const first = (body.tools[0] ?? {}) as { type?: unknown };
    const searching = first.type === "file_search";
    throw new ChatRequestError(
      (searching
        ? (api === "chat"
          ? "tools.0: file_search is served by the Responses API (POST /v1/responses); on chat, " +
            "pass the vector store's id as namespace"
          : "tools.0: file_search goes first, and alone")
        : api === "chat"
        ? "tools: sift answers from its retrieval pipeline and calls no tools, so it cannot " +
          "honour them"
        : "tools: sift answers from its retrieval pipeline and calls no tools but file_search, " +
          "so it cannot honour them") +
        (api === "chat"
          ? '; send no tools (or tool_choice: "none"), and use response_format for structured ' +
            "output"
          : '; send no tools (or tool_choice: "none"), and use text.format for structured output'),
      { param: searching ? "tools.0" : "tools", code: "unsupported_parameter" },
    );
  }
  if (Array.isArray(body.functions) && body.functions.length > 0 && body.function_call !== "none") {
    throw new ChatRequestError(
      "functions: sift answers from its retrieval pipeline and calls no functions, so it " +
        "cannot honour them; send no functions",
      { param: "functions", code: "unsupported_parameter" },
    );
  }
}

import { failSpan, inSpan } from "../../../shared/tracing/spans.ts";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types";
import type { ResilientCache } from "../../../shared/cache/resilient.ts";
import type { McpContext, ToolExtra } from "./context.ts";
import { toolError } from "./results.ts";

/** How long a cancellation waits for the call it names; a call still running later is not it. */
const CANCEL_TTL_SECONDS = 120;
/** How often a running call looks for its cancellation. */
const POLL_MS = 250;

const keyOf = (caller: string, requestId: string | number) =>
  `mcp:cancelled:${caller}:${typeof requestId}:${requestId}`;

/**
 * Records a client's `notifications/cancelled`. Stateless, the notification
 * comes in a POST of its own, perhaps to another isolate than the call it
 * names, so it goes to platform state (the cache store: memory in one Deno
 * process, the Durable Object on Workers, Upstash Redis), never to isolate memory.
 */
export async function recordCancellation(
  context: Pick<McpContext, "cache" | "caller">,
  requestId: string | number,
): Promise<void> {
  await context.cache.set(keyOf(context.caller, requestId), true, {
    ttlSeconds: CANCEL_TTL_SECONDS,
  });
}

/**
 * The signal a tool's steps run under: it aborts when the SDK aborts the call
 * (the transport closed), when the HTTP request goes away (the client
 * disconnected), or when a cancellation for this call lands in the cache.
 * `stop()` ends the watch when the call is over.
 */
export function callSignal(
  context: Pick<McpContext, "cache" | "caller" | "steps">,
  extra: Pick<ToolExtra, "signal" | "requestId">,
): { signal: AbortSignal; stop: () => void } {
  const controller = new AbortController();
  const abort = (reason: unknown) => {
    if (!controller.signal.aborted) controller.abort(reason);
  };
  const parents = [extra.signal, context.steps.signal];
  const onParentAbort = (event: Event) => abort((event.target as AbortSignal).reason);
  for (const parent of parents) {
    if (parent.aborted) abort(parent.reason);
    else parent.addEventListener("abort", onParentAbort, { once: true });
  }
  const watched = watchCancellation(
    context.cache,
    keyOf(context.caller, extra.requestId),
    () => abort(new Error("the client cancelled the call")),
  );
  return {
    signal: controller.signal,
    stop: () => {
      watched.stop();
      for (const parent of parents) parent.removeEventListener("abort", onParentAbort);
    },
  };
}

function watchCancellation(cache: ResilientCache, key: string, onCancelled: () => void) {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const poll = async () => {
    if (stopped) return;
    if (await cache.get<boolean>(key)) {
      stopped = true;
      onCancelled();
      return;
    }
    if (!stopped) timer = setTimeout(poll, POLL_MS);
  };
  timer = setTimeout(poll, POLL_MS);
  return {
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

/**
 * A tool's body under its call's signal (`callSignal`), with the step
 * context that carries it: whatever the body throws comes back as a tool
 * error (`isError`), and the cancellation watch ends with the call.
 */
export function runTool(
  tool: string,
  context: Pick<McpContext, "cache" | "caller" | "steps">,
  extra: Pick<ToolExtra, "signal" | "requestId">,
  body: (steps: McpContext["steps"]) => Promise<CallToolResult>,
): Promise<CallToolResult> {
  // One span per tool call (GenAI's `execute_tool`), parent of the steps the tool calls.
  return inSpan(`execute_tool ${tool}`, {
    "gen_ai.operation.name": "execute_tool",
    "gen_ai.tool.name": tool,
  }, async (span) => {
    const call = callSignal(context, extra);
    try {
      return await body({ ...context.steps, signal: call.signal });
    } catch (error) {
      failSpan(span, error);
      return toolError(error, call.signal);
    } finally {
      call.stop();
    }
  });
}

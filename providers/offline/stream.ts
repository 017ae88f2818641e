import { countTokens } from "../../shared/text/tokenize.ts";
import type { Latency } from "../../shared/offline-knobs.ts";
import { sleep, tokenDelay } from "./timing.ts";

/** What one streamed completion needs; `cut` ends the body with an error halfway. */
export type StreamPlan = {
  base: { id: string; created: number; model: string; system_fingerprint: string };
  content: string;
  finishReason: "stop" | "length";
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
  includeUsage: boolean;
  cut: boolean;
  latency: Latency;
};

/** Content in groups of up to three words with their spacing, so joining the deltas restores it exactly. */
function wordGroups(content: string): string[] {
  return content.match(/\s*\S+(?:\s+\S+){0,2}\s*/g) ?? [];
}

async function* events(plan: StreamPlan, signal: AbortSignal): AsyncGenerator<string> {
  // OpenAI sends `usage: null` on every chunk but the last when usage was asked for.
  const extra = plan.includeUsage ? { usage: null } : {};
  const chunk = (delta: object, finishReason: string | null = null) =>
    `data: ${
      JSON.stringify({
        ...plan.base,
        object: "chat.completion.chunk",
        choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
        ...extra,
      })
    }\n\n`;

  await sleep(plan.latency.ttftMs, signal);
  yield chunk({ role: "assistant", content: "", refusal: null });
  const groups = wordGroups(plan.content);
  const cutAt = plan.cut ? Math.floor(groups.length / 2) : Infinity;
  for (const [i, group] of groups.entries()) {
    if (i >= cutAt) break;
    if (i > 0) await sleep(tokenDelay(countTokens(group), plan.latency.tokensPerSecond), signal);
    yield chunk({ content: group });
  }
  if (plan.cut) {
    // Not an AbortError: the SDK treats those as the caller's own cancel and ends quietly.
    throw new Error("Stream cut mid-way (offline model fault injection: cut)");
  }
  yield chunk({}, plan.finishReason);
  if (plan.includeUsage) {
    yield `data: ${
      JSON.stringify({
        ...plan.base,
        object: "chat.completion.chunk",
        choices: [],
        usage: plan.usage,
      })
    }\n\n`;
  }
  yield "data: [DONE]\n\n";
}

/**
 * A `text/event-stream` of `chat.completion.chunk` events ending in
 * `data: [DONE]`, paced by the latency knobs. Pull-based, so nothing is
 * produced ahead of the reader; a cancelled body or an aborted request stops
 * the pacing timers at once.
 */
export function streamCompletion(plan: StreamPlan, requestSignal: AbortSignal): Response {
  const cancelled = new AbortController();
  const iterator = events(plan, AbortSignal.any([requestSignal, cancelled.signal]));
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await iterator.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      } catch (error) {
        controller.error(error);
      }
    },
    async cancel() {
      cancelled.abort();
      await iterator.return(undefined).catch(() => undefined);
    },
  });
  return new Response(body, {
    headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" },
  });
}

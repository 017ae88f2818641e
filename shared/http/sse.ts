import type { Context } from "hono";
import { streamSSE } from "hono/streaming";
import { toErrorBody } from "../errors.ts";
import { StepError } from "../steps/call.ts";

export type SendEvent = (event: string, data: unknown) => Promise<void>;

type SSEStream = Parameters<Parameters<typeof streamSSE>[1]>[0];

/**
 * hono's `streamSSE` with one signal that aborts when the client goes away
 * (the stream's own abort, or the request's), handed to `run` so upstream
 * calls stop too. The shared shell of sift's event streams and OpenAI's.
 */
export function abortableSSE(
  c: Context,
  run: (stream: SSEStream, signal: AbortSignal) => Promise<void>,
): Response {
  return streamSSE(c, async (stream) => {
    const controller = new AbortController();
    const abort = () => controller.abort();
    stream.onAbort(abort);
    c.req.raw.signal.addEventListener("abort", abort, { once: true });
    try {
      await run(stream, controller.signal);
    } finally {
      c.req.raw.signal.removeEventListener("abort", abort);
    }
  });
}

/**
 * A `text/event-stream` response that runs `produce` with a signal that
 * aborts when the client goes away, so upstream LLM calls are cancelled too.
 * Validate before calling this: once the stream is open the status is 200.
 * A failure after that becomes an `error` event (the public message only,
 * and the step's name when a step failed);
 * the stream always ends with `done`.
 */
export function eventStream(
  c: Context,
  produce: (send: SendEvent, signal: AbortSignal) => Promise<void>,
): Response {
  return abortableSSE(c, async (stream, signal) => {
    const send: SendEvent = async (event, data) => {
      if (signal.aborted) return;
      await stream.writeSSE({ event, data: JSON.stringify(data) });
    };
    try {
      await produce(send, signal);
    } catch (error) {
      if (signal.aborted) return;
      console.error(`${c.req.method} ${c.req.path} stream failed:`, error);
      // A failed step is named, so a caller knows which function to look at.
      const step = error instanceof StepError ? { step: error.step } : {};
      await send("error", { ...toErrorBody(error).body.error, ...step });
    }
    await send("done", {});
  });
}

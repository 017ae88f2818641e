import type { Context } from "hono";
import { abortableSSE } from "../../../shared/http/sse.ts";
import { toOpenAIError } from "../openai/errors.ts";

export type WriteChunk = (chunk: unknown) => Promise<void>;

/**
 * OpenAI's streaming form: each chunk a `data:` line of JSON, then
 * `data: [DONE]`. `produce` gets a signal that aborts when the client leaves,
 * so the pipeline's calls are cancelled too. Validate before calling this:
 * once the stream is open the status is 200, so a failure becomes one
 * `{"error": {...}}` chunk (OpenAI's clients throw it as an `APIError`) and
 * the stream ends without `[DONE]`.
 */
export function openAIStream(
  c: Context,
  produce: (write: WriteChunk, signal: AbortSignal) => Promise<void>,
): Response {
  return abortableSSE(c, async (stream, signal) => {
    const write: WriteChunk = async (chunk) => {
      if (signal.aborted) return;
      await stream.writeSSE({ data: JSON.stringify(chunk) });
    };
    try {
      await produce(write, signal);
      if (!signal.aborted) await stream.writeSSE({ data: "[DONE]" });
    } catch (error) {
      if (signal.aborted) return;
      console.error(`${c.req.method} ${c.req.path} stream failed:`, error);
      await write(toOpenAIError(error, { status: 502 }).body);
    }
  });
}

import { z } from "zod";

/** Tries per batch when replies come back cut or malformed (the first try included). */
export const MALFORMED_REPLY_ATTEMPTS = 3;
const BASE_DELAY_MS = 25;

/** The least an embeddings reply must hold: an indexed vector per input. */
export const embeddingsReplySchema = z.object({
  data: z.array(z.object({ index: z.number().int(), embedding: z.array(z.number()) })),
});

/** A 200 whose body is not a usable embeddings reply. */
export class MalformedReplyError extends Error {
  override name = "MalformedReplyError";
}

/**
 * True for what the `openai` SDK does not retry but a second call may fix:
 * a body that is not JSON (cut halfway, or empty) or has the wrong shape.
 * The SDK decodes base64 vectors itself, so a missing field surfaces as its
 * `TypeError`; network failures never do (it wraps those in its own errors).
 */
export function isMalformedReply(error: unknown): boolean {
  return error instanceof MalformedReplyError || error instanceof SyntaxError ||
    error instanceof TypeError;
}

/**
 * Waits about `BASE_DELAY_MS * 2^(attempt-1)`, with full jitter so callers
 * that failed together do not retry together; ends early on abort.
 */
export function jitteredDelay(attempt: number, signal?: AbortSignal): Promise<void> {
  const ms = Math.random() * BASE_DELAY_MS * 2 ** (attempt - 1);
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}

import { z } from "zod";
import {
  type ChatRequest,
  completeObject,
  completeText,
  type TokenUsage,
} from "../../../shared/llm/chat.ts";
import { correctionTurns } from "../../../core/correction.ts";
import type { LlmContext } from "../../../shared/llm/client.ts";
import type { RenderedPrompt } from "./render.ts";

/** Tokens and calls spent, summed over every call the tree makes. */
export type TotUsage = TokenUsage & { llm_calls: number };

export const noUsage = (): TotUsage => ({ tokens_in: 0, tokens_out: 0, llm_calls: 0 });

/** Adds `more` into `total`. */
export function addUsage(total: TotUsage, more: TokenUsage, calls = 1): void {
  total.tokens_in += more.tokens_in;
  total.tokens_out += more.tokens_out;
  total.llm_calls += calls;
}

/**
 * One call of the tree. Structured mode sends `responseSchema` as
 * json_schema; either way the caller parses the text itself, so a provider
 * that ignores the format still gets read.
 */
export async function ask(
  llm: LlmContext,
  rendered: RenderedPrompt,
  format: { schema: z.ZodType; name: string },
  signal: AbortSignal | undefined,
  followUp?: ChatRequest["followUp"],
): Promise<{ text: string; usage: TokenUsage }> {
  const { format: _, model, ...prompt } = rendered;
  // A per-dimension model (`tot.models`) asks the same provider under another model name.
  const target = model === undefined ? llm : { ...llm, model };
  const request = { ...prompt, signal, followUp };
  if (!target.structuredOutputs) return await completeText(target, request);
  const { text, usage } = await completeObject(target, {
    ...request,
    schema: z.unknown(),
    responseSchema: format.schema,
    schemaName: format.name,
  });
  return { text, usage };
}

/**
 * One call of the tree read with `read`: an unreadable reply gets one
 * correction turn (the reply, what was wrong, the prompt's format again);
 * both calls count in `usage`. `undefined` when both replies are
 * unreadable; a failed first call throws (the caller says why), a failed
 * correction is unreadable. A cancelled request always throws.
 */
export async function askRead<T>(
  llm: LlmContext,
  rendered: RenderedPrompt,
  format: { schema: z.ZodType; name: string },
  signal: AbortSignal | undefined,
  usage: TotUsage,
  reading: { read: (text: string) => T | undefined; problem: string },
): Promise<T | undefined> {
  const first = await ask(llm, rendered, format, signal);
  addUsage(usage, first.usage);
  const read = reading.read(first.text);
  if (read !== undefined) return read;
  try {
    const second = await ask(
      llm,
      rendered,
      format,
      signal,
      correctionTurns(first.text, reading.problem, rendered.format),
    );
    addUsage(usage, second.usage);
    return reading.read(second.text);
  } catch (error) {
    if (signal?.aborted) throw error;
    addUsage(usage, { tokens_in: 0, tokens_out: 0 });
    return undefined;
  }
}

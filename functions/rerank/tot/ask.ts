import { z } from "zod";
import { completeObject, completeText, type TokenUsage } from "../../../shared/llm/chat.ts";
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
): Promise<{ text: string; usage: TokenUsage }> {
  const request = { ...rendered, signal };
  if (!llm.structuredOutputs) return await completeText(llm, request);
  const { text, usage } = await completeObject(llm, {
    ...request,
    schema: z.unknown(),
    responseSchema: format.schema,
    schemaName: format.name,
  });
  return { text, usage };
}

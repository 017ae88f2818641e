import type { z } from "zod";
import { completeObject, completeText, type TokenUsage } from "../../shared/llm/chat.ts";
import type { LlmContext } from "../../shared/llm/client.ts";
import { type PromptTemplate, renderTemplate } from "../../shared/llm/prompt.ts";

/** A judge prompt: its system text has a `{{format}}` slot for the output mode. */
export type JudgePrompt = PromptTemplate & { formatJson: string; formatText: string };

/**
 * One call to the judge model in its output mode: json_schema when
 * structured outputs are on (the reply parsed with `schema`, leniently),
 * the prompt's text format otherwise (`object` undefined). Readers then take
 * what they can from `object` or `text`.
 */
export async function askJudge<T>(
  judge: LlmContext,
  prompt: JudgePrompt,
  user: string,
  options: {
    schema: z.ZodType<T>;
    responseSchema: z.ZodType;
    schemaName: string;
    signal: AbortSignal | undefined;
  },
): Promise<{ text: string; object: T | undefined; usage: TokenUsage }> {
  const request = {
    prompt,
    system: renderTemplate(prompt.system, {
      format: judge.structuredOutputs ? prompt.formatJson : prompt.formatText,
    }),
    user,
    signal: options.signal,
  };
  if (!judge.structuredOutputs) {
    return { ...(await completeText(judge, request)), object: undefined };
  }
  return await completeObject(judge, { ...request, ...options });
}

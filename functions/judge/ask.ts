import type { z } from "zod";
import {
  type ChatRequest,
  completeObject,
  completeText,
  type TokenUsage,
} from "../../shared/llm/chat.ts";
import type { LlmContext } from "../../shared/llm/client.ts";
import { correctionTurns } from "../../core/correction.ts";
import { correctionPrompt } from "../../prompts/correction.ts";
import { type PromptTemplate, renderTemplate } from "../../shared/llm/prompt.ts";

/** A judge prompt: its system text has a `{{format}}` slot for the output mode. */
export type JudgePrompt = PromptTemplate & { formatJson: string; formatText: string };

/** The reply's schema (structured outputs), its JSON Schema name and the caller's signal. */
export type JudgeCallOptions<T> = {
  schema: z.ZodType<T>;
  responseSchema: z.ZodType;
  schemaName: string;
  signal: AbortSignal | undefined;
};

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
  options: JudgeCallOptions<T> & { followUp?: ChatRequest["followUp"] },
): Promise<{ text: string; object: T | undefined; usage: TokenUsage }> {
  const request = {
    prompt,
    system: renderTemplate(prompt.system, {
      format: judge.structuredOutputs ? prompt.formatJson : prompt.formatText,
    }),
    user,
    signal: options.signal,
    followUp: options.followUp,
  };
  if (!judge.structuredOutputs) {
    return { ...(await completeText(judge, request)), object: undefined };
  }
  const { followUp: _, ...objectOptions } = options;
  return await completeObject(judge, { ...request, ...objectOptions });
}

/** What comes of a judge's call once read: the value, or none after the one retry. */
export type ReadReply<R> = {
  read: R | undefined;
  text: string;
  usage: TokenUsage;
  /** True when the first reply was unreadable and a correction was sent. */
  retried: boolean;
};

/**
 * One judge call read with `read`; when the reply is unreadable, one more
 * turn says what format was expected (the prompt's own format text) and the
 * second reply is read the same way. Both calls' tokens are counted.
 * `read` undefined after that is the caller's degraded judgment.
 */
export async function askJudgeReadably<T, R>(
  judge: LlmContext,
  prompt: JudgePrompt,
  user: string,
  options: JudgeCallOptions<T>,
  read: (text: string, object: T | undefined) => R | undefined,
): Promise<ReadReply<R>> {
  const first = await askJudge(judge, prompt, user, options);
  const firstRead = read(first.text, first.object);
  if (firstRead !== undefined) {
    return { read: firstRead, text: first.text, usage: first.usage, retried: false };
  }
  const format = judge.structuredOutputs ? prompt.formatJson : prompt.formatText;
  const followUp = correctionTurns(first.text, correctionPrompt.unreadable, format);
  const second = await askJudge(judge, prompt, user, { ...options, followUp });
  return {
    read: read(second.text, second.object),
    text: second.text,
    usage: {
      tokens_in: first.usage.tokens_in + second.usage.tokens_in,
      tokens_out: first.usage.tokens_out + second.usage.tokens_out,
    },
    retried: true,
  };
}

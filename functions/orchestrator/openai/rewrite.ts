import { standaloneQuestionPrompt } from "../../../prompts/standalone-question.ts";
import type { ResilientCache } from "../../../shared/cache/resilient.ts";
import { sha256Hex } from "../../../shared/hash.ts";
import { completeText, type TokenUsage } from "../../../shared/llm/chat.ts";
import type { LlmContext } from "../../../shared/llm/client.ts";
import { promptTag, renderTemplate } from "../../../shared/llm/prompt.ts";
import { LIMITS } from "../../../shared/limits.ts";
import type { Turn } from "./conversation.ts";

/** The most recent turns the rewrite sees, each cut to this many characters (its start). */
export const REWRITE_TURNS = 10;
export const REWRITE_TURN_CHARS = 4000;
const TTL_SECONDS = 24 * 3600;

export type Rewrite = { question: string; rewritten: boolean; usage: TokenUsage };

/** Breaks our own tags inside a turn, so a message cannot close its block or pose as the question. */
function neutralize(text: string): string {
  return text.replace(/<(\/?)\s*(conversation|turn|question)\b/gi, "<$1 $2");
}

export function renderTurns(history: readonly Turn[]): string {
  return history.slice(-REWRITE_TURNS)
    .map((turn) =>
      `<turn role="${turn.role}">\n${neutralize(turn.text.slice(0, REWRITE_TURN_CHARS))}\n</turn>`
    )
    .join("\n");
}

/**
 * The model's reply as a question: its first non-empty line, without a
 * "Question:" label or quotes. Undefined when nothing usable is left.
 */
export function cleanQuestion(reply: string): string | undefined {
  const line = reply.split("\n").map((text) => text.trim()).find(Boolean) ?? "";
  const question = line
    .replace(/^(?:standalone\s+|rewritten\s+)?question\s*:\s*/i, "")
    .replace(/^["'“]+|["'”]+$/g, "")
    .replace(/\s+/g, " ")
    .trim();
  return question && question.length <= LIMITS.queryChars ? question : undefined;
}

/**
 * One LLM call turns the chat's last question into one that stands alone,
 * from the turns before it. Cached per turns, question, prompt version and
 * model. A reply with no usable question, or a failed call, keeps the
 * question as written: the answer can still come, only less well aimed.
 */
export async function standaloneQuestion(
  deps: { llm: LlmContext; cache: ResilientCache },
  input: { question: string; history: readonly Turn[] },
  signal: AbortSignal,
): Promise<Rewrite> {
  const turns = renderTurns(input.history);
  const key = `standalone:${
    promptTag(standaloneQuestionPrompt)
  }:${deps.llm.model}:${await sha256Hex(
    JSON.stringify([turns, input.question]),
  )}`;
  const cached = await deps.cache.get<string>(key);
  const none = { tokens_in: 0, tokens_out: 0 };
  if (cached) return { question: cached, rewritten: true, usage: none };
  try {
    const reply = await completeText(deps.llm, {
      prompt: standaloneQuestionPrompt,
      system: standaloneQuestionPrompt.system,
      user: renderTemplate(standaloneQuestionPrompt.user, {
        turns,
        question: neutralize(input.question),
      }),
      signal,
    });
    const question = cleanQuestion(reply.text);
    if (!question) return { question: input.question, rewritten: false, usage: reply.usage };
    await deps.cache.set(key, question, { ttlSeconds: TTL_SECONDS });
    return { question, rewritten: true, usage: reply.usage };
  } catch (error) {
    if (signal.aborted) throw error;
    console.warn("the question rewrite failed:", error instanceof Error ? error.message : error);
    return { question: input.question, rewritten: false, usage: none };
  }
}

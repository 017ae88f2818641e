import { correctionPrompt } from "../prompts/correction.ts";
import type { ChatRequest } from "../shared/llm/chat.ts";
import { renderTemplate } from "../shared/llm/prompt.ts";
import { setReasoningAside } from "../shared/llm/reasoning.ts";

/** The model's reply is cut to this many characters in the correction turn. */
const REPLY_CHARS = 4_000;

/**
 * The two turns of one correction: the model's unreadable reply (its
 * thinking set aside), then what was wrong and the format asked for; a
 * reply that held only thinking is told so and asked for the answer alone. Sent once; a reply still unreadable
 * after it is the step's degraded result (docs/model-replies.md).
 *
 * @example
 * correctionTurns("Relevance: high", "I could not read a score.", "Doc: N, Relevance: X");
 */
export function correctionTurns(
  reply: string,
  problem: string,
  format: string,
): NonNullable<ChatRequest["followUp"]> {
  // Thinking never goes back (providers reject it); a reply that was only thinking asks for the answer alone.
  const answer = setReasoningAside(reply).answer;
  return [
    {
      role: "assistant",
      content: answer ? answer.slice(0, REPLY_CHARS) : correctionPrompt.noAnswerTurn,
    },
    {
      role: "user",
      content: renderTemplate(correctionPrompt.user, {
        problem: answer ? problem : correctionPrompt.onlyReasoning,
        format: format.trim(),
      }),
    },
  ];
}

/** Two calls' tokens as one. */
export function sumUsage<T extends { tokens_in: number; tokens_out: number }>(
  first: T,
  second: { tokens_in: number; tokens_out: number },
): T {
  return {
    ...first,
    tokens_in: first.tokens_in + second.tokens_in,
    tokens_out: first.tokens_out + second.tokens_out,
  };
}

import type { TokenUsage } from "../../shared/llm/chat.ts";

export const NO_USAGE: TokenUsage = Object.freeze({ tokens_in: 0, tokens_out: 0 });

export function addUsage(...usages: readonly TokenUsage[]): TokenUsage {
  return {
    tokens_in: usages.reduce((sum, usage) => sum + usage.tokens_in, 0),
    tokens_out: usages.reduce((sum, usage) => sum + usage.tokens_out, 0),
  };
}

import { z } from "zod";
import { completeObject, completeText, type TokenUsage } from "../../../shared/llm/chat.ts";
import type { LlmContext } from "../../../shared/llm/client.ts";
import type { PromptTemplate } from "../../../shared/llm/prompt.ts";

/** Every call ITEM makes and the tokens they cost, failed calls included. */
export class Ledger {
  tokens_in = 0;
  tokens_out = 0;
  llm_calls = 0;

  add(usage: TokenUsage): void {
    this.tokens_in += usage.tokens_in;
    this.tokens_out += usage.tokens_out;
  }
}

export type StepCall = {
  prompt: Pick<PromptTemplate, "id" | "version">;
  system: string;
  user: string;
  /** The json_schema sent in structured mode; the reply is parsed by the step either way. */
  responseSchema: z.ZodType;
  schemaName: string;
};

/**
 * One ITEM step's call: the reply's text, or `undefined` when the call failed
 * (after the SDK's own retries), so the step keeps its previous state and
 * the iteration degrades instead of the request failing. A cancelled request
 * still throws.
 */
export async function ask(
  llm: LlmContext,
  ledger: Ledger,
  call: StepCall,
  signal: AbortSignal | undefined,
): Promise<string | undefined> {
  ledger.llm_calls++;
  const request = { prompt: call.prompt, system: call.system, user: call.user, signal };
  try {
    const reply = llm.structuredOutputs
      ? await completeObject(llm, {
        ...request,
        schema: z.unknown(),
        responseSchema: call.responseSchema,
        schemaName: call.schemaName,
      })
      : await completeText(llm, request);
    ledger.add(reply.usage);
    return reply.text;
  } catch (error) {
    if (signal?.aborted) throw error;
    console.warn(`${call.prompt.id} call failed:`, error instanceof Error ? error.message : error);
    return undefined;
  }
}
